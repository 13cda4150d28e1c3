// Package goredis: LA107 on go-redis v9.
package goredis

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

var instanceToken = uuid.NewString() // computed once per process

func constant(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:job", "1", ttl) // want `^lock token is not unique per acquisition: it comes from the constant "1";`
}

func host(ctx context.Context, rdb *redis.Client) {
	h, _ := os.Hostname()
	owner := fmt.Sprintf("%s:%d", h, os.Getpid())
	rdb.SetNX(ctx, "lock:job", owner, ttl) // want `it comes from os\.Hostname and os\.Getpid;`
}

func clock(ctx context.Context, rdb redis.UniversalClient) {
	rdb.SetArgs(ctx, "lock:job", strconv.FormatInt(time.Now().UnixNano(), 10), redis.SetArgs{Mode: "NX", TTL: ttl}) // want `it comes from time\.Now;`
}

func random(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:job", rand.Int63(), ttl) // want `it comes from math/rand's global source;`
}

func once(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:job", instanceToken, ttl) // want `it comes from the package-level variable instanceToken;`
}

func workers(ctx context.Context, rdb *redis.Client) {
	for i := 0; i < 4; i++ {
		go func(workerID int) {
			rdb.SetNX(ctx, "lock:job", workerID, ttl) // want `it comes from the worker id workerID;`
		}(i)
	}
}

func raw(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Do(ctx, "SET", "job:"+id, "owner", "NX", "PX", 30000) // want `^lock token is not unique per acquisition: it comes from the constant "owner"; draw 20 random bytes from crypto/rand for every acquire$`
	rdb.Do(ctx, "DELIFEQ", "job:"+id, "owner")
}

// Negatives.

func fresh(ctx context.Context, rdb *redis.Client, token string) {
	b := make([]byte, 20)
	if _, err := crand.Read(b); err != nil {
		return
	}
	rdb.SetNX(ctx, "lock:a", hex.EncodeToString(b), ttl)
	rdb.SetNX(ctx, "lock:b", uuid.NewString(), ttl)
	rdb.SetNX(ctx, "lock:c", token, ttl) // passed in: not followed
	rdb.SetNX(ctx, "lock:d", newToken(), ttl)
}

func newToken() string {
	b := make([]byte, 20)
	crand.Read(b)
	return hex.EncodeToString(b)
}

// An idempotency marker is not a lock: nothing releases it.
func marker(ctx context.Context, rdb *redis.Client, msgID string) {
	rdb.SetNX(ctx, "seen:"+msgID, 1, 24*time.Hour)
}
