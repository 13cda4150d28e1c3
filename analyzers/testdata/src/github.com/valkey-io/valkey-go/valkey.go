// Package valkey is a stub of github.com/valkey-io/valkey-go (v1.0.79) for
// lockaudit's analyzer tests: the client interfaces, the builder aliases of
// internal/cmds, and Lua scripts, with the real signatures.
package valkey

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go/internal/cmds"
)

// Builder represents a command builder. It should only be created from the client.B() method.
type Builder = cmds.Builder

// Incomplete represents an incomplete Valkey command. It should then be completed by calling Build().
type Incomplete = cmds.Incomplete

// Completed represents a completed Valkey command. It should only be created from the Build() of a command builder.
type Completed = cmds.Completed

// Cacheable represents a completed Valkey command which supports server-assisted client side caching.
type Cacheable = cmds.Cacheable

// Commands is an exported alias to []Completed.
type Commands []Completed

type ClientOption struct {
	InitAddress []string
}

type ValkeyResult struct {
	err error
}

func (r ValkeyResult) Error() error                      { return r.err }
func (r ValkeyResult) ToString() (string, error)         { return "", r.err }
func (r ValkeyResult) AsInt64() (int64, error)           { return 0, r.err }
func (r ValkeyResult) AsBool() (bool, error)             { return false, r.err }
func (r ValkeyResult) ToAny() (any, error)               { return nil, r.err }
func (r ValkeyResult) AsIntSlice() ([]int64, error)      { return nil, r.err }
func (r ValkeyResult) ToMessage() (ValkeyMessage, error) { return ValkeyMessage{}, r.err }

type ValkeyMessage struct{}

func IsValkeyNil(err error) bool { return false }

type CommandClient interface {
	B() Builder
	Do(ctx context.Context, cmd Completed) (resp ValkeyResult)
	DoMulti(ctx context.Context, multi ...Completed) (resp []ValkeyResult)
}

type CoreClient interface {
	CommandClient
	Close()
}

type Client interface {
	CoreClient
	DoCache(ctx context.Context, cmd Cacheable, ttl time.Duration) (resp ValkeyResult)
	Dedicated(fn func(DedicatedClient) error) (err error)
	Dedicate() (client DedicatedClient, cancel func())
}

type DedicatedClient interface {
	CoreClient
}

func NewClient(option ClientOption) (client Client, err error) { return nil, nil }
