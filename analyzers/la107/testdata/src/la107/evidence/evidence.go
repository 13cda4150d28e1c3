// Package evidence: a value written by SET NX is a lock token only when the
// SET NX takes a lock (lock evidence). Flags and markers hold timestamps
// and constants by design.
package evidence

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Negatives.

// A "paused" flag whose value is the time it was set, for display.
func Pause(ctx context.Context, rdb *redis.Client, queue string) error {
	return rdb.SetNX(ctx, "queues:"+queue+":paused", time.Now().Unix(), 0).Err()
}

// A once-only marker of a message name, with an empty value.
func seen(ctx context.Context, rdb *redis.Client, name string) bool {
	return rdb.SetNX(ctx, "msgs:"+name, "", 24*time.Hour).Val()
}

// A negative-cache placeholder.
func notFound(ctx context.Context, rdb *redis.Client, key string) {
	rdb.SetNX(ctx, "cache:"+key, "*", time.Minute)
}

// Positives: the same values where the code says lock.

func seenLock(ctx context.Context, rdb *redis.Client, name string) bool {
	return rdb.SetNX(ctx, "msgs:"+name, "", 24*time.Hour).Val() // want `^lock token is not unique per acquisition: it comes from the constant ""; `
}

type Lease struct{ rdb *redis.Client }

func (l *Lease) Take(ctx context.Context, queue string) error {
	return l.rdb.SetNX(ctx, "queues:"+queue+":owner", time.Now().Unix(), time.Minute).Err() // want `it comes from time\.Now;`
}

// A dedupe marker keyed by a period named lockKeySuffix: the holes after a
// template's constant prefix are its parameters, no name of the key.
func queued(ctx context.Context, rdb *redis.Client, id int, lockKeySuffix string) bool {
	dedupeKey := fmt.Sprintf("queued:%d:%s", id, lockKeySuffix)
	return rdb.SetNX(ctx, dedupeKey, "true", 31*24*time.Hour).Val()
}

// The same template started by a lock prefix names a lock.
func queuedLock(ctx context.Context, rdb *redis.Client, lockPrefix string, id int) bool {
	return rdb.SetNX(ctx, fmt.Sprintf("%s:%d", lockPrefix, id), "true", time.Minute).Val() // want `it comes from the constant "true";`
}
