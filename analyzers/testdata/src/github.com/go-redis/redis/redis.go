// Package redis is a stub of github.com/go-redis/redis (v6.15.9+incompatible)
// for lockaudit's analyzer tests: commands without a context on the
// embedded cmdable struct (pointer receivers); SetNX(..., 0) sends SETNX.
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

type BoolCmd struct{ baseCmd }

func (cmd *BoolCmd) Result() (bool, error) { return false, cmd.err }

type IntCmd struct{ baseCmd }

type cmdable struct {
	process func(cmd Cmder) error
}

func (c *cmdable) Set(key string, value interface{}, expiration time.Duration) *StatusCmd {
	cmd := &StatusCmd{}
	_ = c.process(cmd)
	return cmd
}

func (c *cmdable) SetNX(key string, value interface{}, expiration time.Duration) *BoolCmd {
	cmd := &BoolCmd{}
	_ = c.process(cmd)
	return cmd
}

func (c *cmdable) Del(keys ...string) *IntCmd {
	cmd := &IntCmd{}
	_ = c.process(cmd)
	return cmd
}

func (c *cmdable) Eval(script string, keys []string, args ...interface{}) *Cmd {
	cmd := NewCmd()
	_ = c.process(cmd)
	return cmd
}

type Options struct{ Addr string }

type baseClient struct{}

func (c *baseClient) Process(cmd Cmder) error { return nil }

func (c *baseClient) Do(args ...interface{}) *Cmd {
	cmd := NewCmd(args...)
	_ = c.Process(cmd)
	return cmd
}

type Client struct {
	baseClient
	cmdable
}

func NewClient(opt *Options) *Client {
	c := &Client{}
	c.cmdable.process = c.Process
	return c
}
