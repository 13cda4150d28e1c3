package reentrant

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"os"
)

// A recursive mutex whose owner id comes from the constructor's defaults,
// drawn once per mutex from crypto/rand, and which a caller may replace by
// an option: the caller's id is its own choice (judged where it is
// passed), the default is sound. Negative.
type mutexOption struct {
	clientID string
}

func newMutexOption() *mutexOption {
	b := make([]byte, 16)
	crand.Read(b)
	return &mutexOption{clientID: hex.EncodeToString(b)}
}

type recMutex struct {
	*mutexOption
	name string
	c    *Counted
}

type MutexOptionFunc func(*recMutex)

func WithMutexClientID(clientID string) MutexOptionFunc {
	return func(m *recMutex) { m.clientID = clientID }
}

func NewRecMutex(c *Counted, name string, opts ...MutexOptionFunc) *recMutex {
	m := &recMutex{mutexOption: newMutexOption(), name: name, c: c}
	for _, o := range opts {
		o(m)
	}
	return m
}

func (m *recMutex) Lock(ctx context.Context) bool {
	if ok := m.c.rdb.SetNX(ctx, m.name, m.clientID, ttl).Val(); ok {
		return true
	}
	return m.c.rdb.Get(ctx, m.name).Val() == m.clientID
}

// The same shape with the host name as its default: still weak per owner.
type hostOption struct {
	clientID string
}

func newHostOption() *hostOption {
	h, _ := os.Hostname()
	return &hostOption{clientID: h}
}

type hostMutex struct {
	*hostOption
	name string
	c    *Counted
}

func WithHostClientID(clientID string) func(*hostMutex) {
	return func(m *hostMutex) { m.clientID = clientID }
}

func NewHostMutex(c *Counted, name string) *hostMutex {
	return &hostMutex{hostOption: newHostOption(), name: name, c: c}
}

func (m *hostMutex) Lock(ctx context.Context) bool {
	if ok := m.c.rdb.SetNX(ctx, m.name, m.clientID, ttl).Val(); ok { // want `^reentrant lock's owner id is not unique per owner: it comes from field clientID set once by newHostOption`
		return true
	}
	return m.c.rdb.Get(ctx, m.name).Val() == m.clientID
}
