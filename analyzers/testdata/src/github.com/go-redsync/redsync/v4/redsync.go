// Package redsync is a stub of github.com/go-redsync/redsync/v4 (v4.18.1) for
// lockaudit's analyzer tests.
package redsync

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4/redis"
)

type Redsync struct {
	pools []redis.Pool
}

func New(pools ...redis.Pool) *Redsync { return &Redsync{pools: pools} }

func (r *Redsync) NewMutex(name string, options ...Option) *Mutex {
	m := &Mutex{name: name}
	for _, o := range options {
		o.Apply(m)
	}
	return m
}

type Option interface {
	Apply(*Mutex)
}

type OptionFunc func(*Mutex)

func (f OptionFunc) Apply(mutex *Mutex) { f(mutex) }

func WithExpiry(expiry time.Duration) Option { return OptionFunc(func(m *Mutex) {}) }

func WithSetNXOnExtend() Option { return OptionFunc(func(m *Mutex) {}) }

func WithGenValueFunc(genValueFunc func() (string, error)) Option {
	return OptionFunc(func(m *Mutex) {})
}

func WithValue(v string) Option { return OptionFunc(func(m *Mutex) { m.value = v }) }

type Mutex struct {
	name  string
	value string
}

func (m *Mutex) Name() string                                    { return m.name }
func (m *Mutex) Value() string                                   { return m.value }
func (m *Mutex) Until() time.Time                                { return time.Time{} }
func (m *Mutex) TryLock() error                                  { return nil }
func (m *Mutex) TryLockContext(ctx context.Context) error        { return nil }
func (m *Mutex) Lock() error                                     { return nil }
func (m *Mutex) LockContext(ctx context.Context) error           { return nil }
func (m *Mutex) Unlock() (bool, error)                           { return true, nil }
func (m *Mutex) UnlockContext(ctx context.Context) (bool, error) { return true, nil }
func (m *Mutex) Extend() (bool, error)                           { return true, nil }
func (m *Mutex) ExtendContext(ctx context.Context) (bool, error) { return true, nil }
func (m *Mutex) Valid() (bool, error)                            { return true, nil }
