// Package redsync is a stub of github.com/go-redsync/redsync v1.3.1 (the
// import path before /v4; redigo pools) for lockaudit's analyzer tests.
package redsync

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

type Pool interface {
	Get() redis.Conn
}

type Redsync struct{ pools []Pool }

func New(pools []Pool) *Redsync { return &Redsync{pools: pools} }

func (r *Redsync) NewMutex(name string, options ...Option) *Mutex {
	m := &Mutex{name: name}
	for _, o := range options {
		o.Apply(m)
	}
	return m
}

type Option interface{ Apply(*Mutex) }

type OptionFunc func(*Mutex)

func (f OptionFunc) Apply(mutex *Mutex) { f(mutex) }

func SetExpiry(expiry time.Duration) Option { return OptionFunc(func(m *Mutex) {}) }

func SetTries(tries int) Option { return OptionFunc(func(m *Mutex) {}) }

func SetRetryDelay(delay time.Duration) Option { return OptionFunc(func(m *Mutex) {}) }

func SetGenValueFunc(genValueFunc func() (string, error)) Option {
	return OptionFunc(func(m *Mutex) {})
}

type Mutex struct{ name string }

// Lock is SET NX PX; Unlock and Extend run Lua and return false when the
// lock was not held.
func (m *Mutex) Lock() error  { return nil }
func (m *Mutex) Unlock() bool { return true }
func (m *Mutex) Extend() bool { return true }
