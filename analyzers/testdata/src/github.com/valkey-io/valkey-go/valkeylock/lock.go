// Package valkeylock is a stub of github.com/valkey-io/valkey-go/valkeylock
// (v1.0.79) for lockaudit's analyzer tests.
package valkeylock

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

type LockerOption struct {
	ClientBuilder  func(option valkey.ClientOption) (valkey.Client, error)
	KeyPrefix      string
	ClientOption   valkey.ClientOption
	KeyValidity    time.Duration
	ExtendInterval time.Duration
	TryNextAfter   time.Duration
	KeyMajority    int32
	NoLoopTracking bool
	FallbackSETPX  bool
}

// Locker is the interface of valkeylock
type Locker interface {
	WithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	TryWithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	Client() valkey.Client
	ForceWithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error)
	Close()
}

// NewLocker creates the distributed Locker backed by valkey client side caching
func NewLocker(option LockerOption) (Locker, error) { return nil, nil }
