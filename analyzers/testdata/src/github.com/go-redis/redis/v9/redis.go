// Package redis is a stub of github.com/go-redis/redis/v9 (v9.0.0-rc.2,
// v9's release candidates before the module moved to redis/go-redis; v8's
// API) for lockaudit's analyzer tests: only the script calls they make,
// with the real signatures (commands on the embedded cmdable).
package redis

import "context"

type Cmder interface{ Err() error }

type Cmd struct {
	val interface{}
	err error
}

func (cmd *Cmd) Err() error                   { return cmd.err }
func (cmd *Cmd) Result() (interface{}, error) { return cmd.val, cmd.err }
func (cmd *Cmd) Int64() (int64, error)        { return 0, cmd.err }

type cmdable func(ctx context.Context, cmd Cmder) error

func (c cmdable) Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd {
	cmd := &Cmd{}
	_ = c(ctx, cmd)
	return cmd
}

func (c cmdable) EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd {
	cmd := &Cmd{}
	_ = c(ctx, cmd)
	return cmd
}

type Client struct{ cmdable }

type Scripter interface {
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
}

type Script struct{ src, hash string }

func NewScript(src string) *Script { return &Script{src: src} }

func (s *Script) Run(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return c.EvalSha(ctx, s.hash, keys, args...)
}
