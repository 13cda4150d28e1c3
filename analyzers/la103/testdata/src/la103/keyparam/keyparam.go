// Package keyparam: a key template is named by its leading component (its
// constant prefix, or the hole that starts it), not by the names of the
// holes after it. A dedupe marker keyed by a period called lockKeySuffix
// is no lock key (shape seen in the wild: a scheduler's per-run marker);
// a key built on a lock prefix is one.
package keyparam

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Negatives: the marker's prefix and its own name say queued/dedupe; the
// period hole's name is a parameter of the key.

func queue(ctx context.Context, rdb *redis.Client, kind string, id int, lockKeySuffix string, publish func() error) {
	dedupeKey := fmt.Sprintf("queued:%s:%d:%s", kind, id, lockKeySuffix)
	if ok, err := rdb.SetNX(ctx, dedupeKey, "true", 31*24*time.Hour).Result(); err != nil || !ok {
		return
	}
	if publish() != nil {
		rdb.Del(ctx, dedupeKey) // allow a retry
	}
}

func queueConcat(ctx context.Context, rdb *redis.Client, id string, lockPeriod string, publish func() error) {
	marker := "queued:" + id + ":" + lockPeriod
	if ok, _ := rdb.SetNX(ctx, marker, "1", time.Hour).Result(); !ok {
		return
	}
	if publish() != nil {
		rdb.Del(ctx, marker)
	}
}

// Positives: a leading hole that names a lock, a leading text that says
// lock, a key whose own name says lock.

func run(ctx context.Context, rdb *redis.Client, lockPrefix string, id int, work func()) {
	key := fmt.Sprintf("%s:%d", lockPrefix, id)
	if ok, _ := rdb.SetNX(ctx, key, "1", time.Minute).Result(); !ok {
		return
	}
	work()
	rdb.Del(ctx, key) // want `^plain DEL of lock key `
}

func runConcat(ctx context.Context, rdb *redis.Client, lockPrefix, id string, work func()) {
	key := lockPrefix + ":" + id
	if ok, _ := rdb.SetNX(ctx, key, "1", time.Minute).Result(); !ok {
		return
	}
	work()
	rdb.Del(ctx, key) // want `^plain DEL of lock key `
}

func runText(ctx context.Context, rdb *redis.Client, id int, lockPeriod string, work func()) {
	key := fmt.Sprintf("billing_mylock:%d:%s", id, lockPeriod)
	if ok, _ := rdb.SetNX(ctx, key, "1", time.Minute).Result(); !ok {
		return
	}
	work()
	rdb.Del(ctx, key) // want `^plain DEL of lock key `
}

func runNamed(ctx context.Context, rdb *redis.Client, period string, work func()) {
	runLockKey := fmt.Sprintf("billing_run:%s", period)
	if ok, _ := rdb.SetNX(ctx, runLockKey, "1", time.Minute).Result(); !ok {
		return
	}
	work()
	rdb.Del(ctx, runLockKey) // want `^plain DEL of lock key `
}
