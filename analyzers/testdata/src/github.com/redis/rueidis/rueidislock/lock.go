// Package rueidislock is a stub of github.com/redis/rueidis/rueidislock
// (v1.0.79) for lockaudit's analyzer tests.
package rueidislock

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

type LockerOption struct {
	ClientBuilder  func(option rueidis.ClientOption) (rueidis.Client, error)
	KeyPrefix      string
	ClientOption   rueidis.ClientOption
	KeyValidity    time.Duration
	ExtendInterval time.Duration
	TryNextAfter   time.Duration
	KeyMajority    int32
	NoLoopTracking bool
	FallbackSETPX  bool
}

// Locker is the interface of rueidislock
type Locker interface {
	WithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	TryWithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	Client() rueidis.Client
	ForceWithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	Close()
}

// NewLocker creates the distributed Locker backed by redis client side caching
func NewLocker(option LockerOption) (Locker, error) { return nil, nil }
