// Package redis is a stub of github.com/go-redis/redis/v7 (v7.4.1) for
// lockaudit's analyzer tests: commands without a context on the embedded
// cmdable func type; SetNX(..., 0) sends the legacy SETNX; no KeepTTL.
package redis

import "time"

type Cmder interface {
	Err() error
}

type baseCmd struct{ err error }

func (cmd *baseCmd) Err() error { return cmd.err }

type Cmd struct{ baseCmd }

func NewCmd(args ...interface{}) *Cmd         { return &Cmd{} }
func (cmd *Cmd) Result() (interface{}, error) { return nil, cmd.err }

type StatusCmd struct{ baseCmd }

func (cmd *StatusCmd) Result() (string, error) { return "", cmd.err }

type BoolCmd struct{ baseCmd }

func (cmd *BoolCmd) Result() (bool, error) { return false, cmd.err }

type IntCmd struct{ baseCmd }

func (cmd *IntCmd) Result() (int64, error) { return 0, cmd.err }

type cmdable func(cmd Cmder) error

func (c cmdable) Set(key string, value interface{}, expiration time.Duration) *StatusCmd {
	cmd := &StatusCmd{}
	_ = c(cmd)
	return cmd
}

func (c cmdable) SetNX(key string, value interface{}, expiration time.Duration) *BoolCmd {
	cmd := &BoolCmd{}
	_ = c(cmd)
	return cmd
}

func (c cmdable) Del(keys ...string) *IntCmd {
	cmd := &IntCmd{}
	_ = c(cmd)
	return cmd
}

func (c cmdable) Expire(key string, expiration time.Duration) *BoolCmd {
	cmd := &BoolCmd{}
	_ = c(cmd)
	return cmd
}

func (c cmdable) Eval(script string, keys []string, args ...interface{}) *Cmd {
	cmd := NewCmd()
	_ = c(cmd)
	return cmd
}

func (c cmdable) EvalSha(sha1 string, keys []string, args ...interface{}) *Cmd {
	cmd := NewCmd()
	_ = c(cmd)
	return cmd
}

type Options struct{ Addr string }

type Client struct {
	cmdable
}

func NewClient(opt *Options) *Client {
	c := &Client{}
	c.cmdable = c.Process
	return c
}

func (c *Client) Process(cmd Cmder) error { return nil }

func (c *Client) Do(args ...interface{}) *Cmd {
	cmd := NewCmd(args...)
	_ = c.Process(cmd)
	return cmd
}

type Pipeliner interface {
	Set(key string, value interface{}, expiration time.Duration) *StatusCmd
	SetNX(key string, value interface{}, expiration time.Duration) *BoolCmd
	Exec() ([]Cmder, error)
}

type Pipeline struct {
	cmdable
}

func (c *Pipeline) Exec() ([]Cmder, error) { return nil, nil }

func (c *Client) TxPipelined(fn func(Pipeliner) error) ([]Cmder, error) {
	p := &Pipeline{}
	p.cmdable = func(Cmder) error { return nil }
	return nil, fn(p)
}

type scripter interface {
	Eval(script string, keys []string, args ...interface{}) *Cmd
	EvalSha(sha1 string, keys []string, args ...interface{}) *Cmd
}

type Script struct{ src string }

func NewScript(src string) *Script { return &Script{src: src} }

func (s *Script) Run(c scripter, keys []string, args ...interface{}) *Cmd {
	return c.EvalSha(s.src, keys, args...)
}
