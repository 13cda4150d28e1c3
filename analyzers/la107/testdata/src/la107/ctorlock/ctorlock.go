// Package ctorlock: a lock whose token is its constructor's parameter,
// kept in a field (shape seen in the wild): nothing here says what the
// token is, so each caller is judged by what it passes (la107/ctoruse).
package ctorlock

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"time"

	"github.com/redis/go-redis/v9"
)

type DistributedLock struct {
	client *redis.Client
	key    string
	value  string
	ttl    time.Duration
}

func NewDistributedLock(client *redis.Client, key string, value string, ttl time.Duration) *DistributedLock { // want NewDistributedLock:"token parameter 2"
	return &DistributedLock{client: client, key: key, value: value, ttl: ttl}
}

func (l *DistributedLock) Acquire(ctx context.Context) (bool, error) {
	return l.client.SetNX(ctx, "lock:"+l.key, l.value, l.ttl).Result()
}

// Negatives: a lock that draws its own token per acquire, and one whose
// constructor stores a value of its own.

type OwnLock struct {
	client *redis.Client
	key    string
	name   string
}

func NewOwnLock(client *redis.Client, key, name string) *OwnLock {
	return &OwnLock{client: client, key: key, name: name}
}

func (l *OwnLock) Acquire(ctx context.Context) (string, error) {
	b := make([]byte, 20)
	crand.Read(b)
	tok := hex.EncodeToString(b)
	return tok, l.client.SetNX(ctx, "lock:"+l.key, tok, time.Minute).Err()
}

type Strong struct {
	client *redis.Client
	key    string
	token  string
}

func NewStrong(client *redis.Client, key string) *Strong {
	b := make([]byte, 20)
	crand.Read(b)
	return &Strong{client: client, key: key, token: hex.EncodeToString(b)}
}

func (l *Strong) Acquire(ctx context.Context) error {
	return l.client.SetNX(ctx, "lock:"+l.key, l.token, time.Minute).Err() // want `^lock token is not unique per acquisition: it comes from field token set once by NewStrong;`
}
