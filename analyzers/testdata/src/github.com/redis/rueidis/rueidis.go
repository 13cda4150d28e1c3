// Package rueidis is a stub of github.com/redis/rueidis (v1.0.79) for
// lockaudit's analyzer tests: the client interfaces, the builder aliases of
// internal/cmds, and Lua scripts, with the real signatures.
package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis/internal/cmds"
)

// Builder represents a command builder. It should only be created from the client.B() method.
type Builder = cmds.Builder

// Incomplete represents an incomplete Redis command. It should then be completed by calling Build().
type Incomplete = cmds.Incomplete

// Completed represents a completed Redis command. It should only be created from the Build() of a command builder.
type Completed = cmds.Completed

// Cacheable represents a completed Redis command which supports server-assisted client side caching.
type Cacheable = cmds.Cacheable

// Commands is an exported alias to []Completed.
type Commands []Completed

type ClientOption struct {
	InitAddress []string
}

type RedisResult struct {
	err error
}

func (r RedisResult) Error() error                     { return r.err }
func (r RedisResult) ToString() (string, error)        { return "", r.err }
func (r RedisResult) AsInt64() (int64, error)          { return 0, r.err }
func (r RedisResult) AsBool() (bool, error)            { return false, r.err }
func (r RedisResult) ToAny() (any, error)              { return nil, r.err }
func (r RedisResult) AsIntSlice() ([]int64, error)     { return nil, r.err }
func (r RedisResult) ToMessage() (RedisMessage, error) { return RedisMessage{}, r.err }

type RedisMessage struct{}

func IsRedisNil(err error) bool { return false }

type CommandClient interface {
	B() Builder
	Do(ctx context.Context, cmd Completed) (resp RedisResult)
	DoMulti(ctx context.Context, multi ...Completed) (resp []RedisResult)
}

type CoreClient interface {
	CommandClient
	Close()
}

type Client interface {
	CoreClient
	DoCache(ctx context.Context, cmd Cacheable, ttl time.Duration) (resp RedisResult)
	Dedicated(fn func(DedicatedClient) error) (err error)
	Dedicate() (client DedicatedClient, cancel func())
}

type DedicatedClient interface {
	CoreClient
}

func NewClient(option ClientOption) (client Client, err error) { return nil, nil }
