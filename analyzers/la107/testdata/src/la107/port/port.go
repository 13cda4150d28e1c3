// Package port takes its client through an interface of its own that no
// type in view implements; a token drawn once per mutex is reused by every
// acquire, a token drawn per acquire is not.
package port

import (
	"context"
	"crypto/rand"
	"encoding/hex"
)

type RedisClient interface {
	SetNX(ctx context.Context, key string, value any, expireSeconds int64) (bool, error)
}

type mutex struct {
	redis RedisClient
	key   string
	value string
}

func newMutex(c RedisClient, key string) *mutex {
	return &mutex{redis: c, key: key, value: randValue()}
}

func randValue() string {
	var b [20]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (m *mutex) Lock(ctx context.Context, ttl int64) (bool, error) {
	return m.redis.SetNX(ctx, m.key, m.value, ttl) // want `^lock token is not unique per acquisition: it comes from field value set once by newMutex;`
}

// Negative: a fresh token per acquire.
type freshMutex struct {
	redis RedisClient
	key   string
	value string
}

func (m *freshMutex) Lock(ctx context.Context, ttl int64) (bool, error) {
	m.value = randValue()
	return m.redis.SetNX(ctx, m.key, m.value, ttl)
}
