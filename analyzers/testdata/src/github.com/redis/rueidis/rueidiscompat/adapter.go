// Package rueidiscompat is a stub of github.com/redis/rueidis/rueidiscompat
// (v1.0.79) for lockaudit's analyzer tests: a go-redis shaped adapter whose
// SetNX(..., 0) sends the legacy SETNX.
package rueidiscompat

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

const KeepTTL = -1

type Cmd struct{ err error }

func (cmd *Cmd) Result() (any, error) { return nil, cmd.err }

type StatusCmd struct{ err error }

func (cmd *StatusCmd) Result() (string, error) { return "", cmd.err }

type BoolCmd struct{ err error }

func (cmd *BoolCmd) Result() (bool, error) { return false, cmd.err }

type IntCmd struct{ err error }

func (cmd *IntCmd) Result() (int64, error) { return 0, cmd.err }

type Cmder interface{}

type SetArgs struct {
	Mode     string
	TTL      time.Duration
	ExpireAt time.Time
	Get      bool
	KeepTTL  bool
}

type Cmdable interface {
	Set(ctx context.Context, key string, value any, expiration time.Duration) *StatusCmd
	SetArgs(ctx context.Context, key string, value any, a SetArgs) *StatusCmd
	SetNX(ctx context.Context, key string, value any, expiration time.Duration) *BoolCmd
	Del(ctx context.Context, keys ...string) *IntCmd
	PExpire(ctx context.Context, key string, milliseconds time.Duration) *BoolCmd
	Eval(ctx context.Context, script string, keys []string, args ...any) *Cmd
	TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error)
}

type Pipeliner interface {
	Cmdable
}

type Compat struct {
	client rueidis.Client
}

func NewAdapter(client rueidis.Client) Cmdable { return &Compat{client: client} }

func (c *Compat) Set(ctx context.Context, key string, value any, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}

func (c *Compat) SetArgs(ctx context.Context, key string, value any, a SetArgs) *StatusCmd {
	return &StatusCmd{}
}

func (c *Compat) SetNX(ctx context.Context, key string, value any, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}

func (c *Compat) Del(ctx context.Context, keys ...string) *IntCmd { return &IntCmd{} }

func (c *Compat) PExpire(ctx context.Context, key string, milliseconds time.Duration) *BoolCmd {
	return &BoolCmd{}
}

func (c *Compat) Eval(ctx context.Context, script string, keys []string, args ...any) *Cmd {
	return &Cmd{}
}

func (c *Compat) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, fn(c)
}

type Scripter interface {
	Eval(ctx context.Context, script string, keys []string, args ...any) *Cmd
}

type Script struct{ src string }

func NewScript(src string) *Script { return &Script{src: src} }

func (s *Script) Run(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return c.Eval(ctx, s.src, keys, args...)
}
