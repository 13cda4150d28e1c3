// Package redsync is a stub of github.com/go-redsync/redsync/v3 (v3.0.0)
// for lockaudit's analyzer tests.
package redsync

import "time"

type Redsync struct{}

type Pool interface{}

func New(pools []Pool) *Redsync { return &Redsync{} }

func (r *Redsync) NewMutex(name string, options ...Option) *Mutex { return &Mutex{name: name} }

type Option interface{ Apply(*Mutex) }

type OptionFunc func(*Mutex)

func (f OptionFunc) Apply(mutex *Mutex) { f(mutex) }

func SetExpiry(expiry time.Duration) Option { return OptionFunc(func(m *Mutex) {}) }

type Mutex struct{ name string }

// Unlock and Extend return false (and a nil error when every pool
// answered) when the lock was not held.
func (m *Mutex) Lock() error           { return nil }
func (m *Mutex) Unlock() (bool, error) { return true, nil }
func (m *Mutex) Extend() (bool, error) { return true, nil }
