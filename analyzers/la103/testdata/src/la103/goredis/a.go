// Package goredis: LA103 on go-redis v9.
package goredis

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

func jobKey(id string) string { return "job:" + id + ":owner" }

// The name says lock: lock evidence for the keys it acquires.
func acquireLock(ctx context.Context, rdb *redis.Client, id, token string) bool {
	ok, _ := rdb.SetNX(ctx, fmt.Sprintf("report:%s", id), token, ttl).Result()
	ok2, _ := rdb.SetNX(ctx, jobKey(id), token, ttl).Result()
	return ok && ok2
}

func release(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Del(ctx, "report:"+id)            // want "^plain DEL of lock key `\"report:\" \\+ id` deletes whoever holds it: use DELIFEQ key token and check the reply$"
	defer rdb.Unlink(ctx, jobKey(id))     // want "^plain UNLINK of lock key `jobKey\\(id\\)` deletes"
	rdb.Del(ctx, "lock:report")           // want "plain DEL of lock key \"lock:report\" deletes"
	rdb.GetDel(ctx, "jobs:"+id+":lock")   // want "^plain GETDEL of lock key `\"jobs:\" \\+ id \\+ \":lock\"` deletes"
	rdb.Do(ctx, "del", "lock:"+id)        // want "^plain DEL of lock key `\"lock:\" \\+ id`"
	rdb.Del(ctx, "cache:"+id, "lock:"+id) // want "^plain DEL of lock key `\"lock:\" \\+ id`"
}

// Mutex holds its key in a field: Lock acquires the field's key, so Unlock's
// DEL of the same field is a lock release.
type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	token string
}

func (m *Mutex) Lock(ctx context.Context) error {
	return m.rdb.SetNX(ctx, m.key, m.token, ttl).Err()
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return m.rdb.Del(ctx, m.key).Err() // want "^plain DEL of lock key `m\\.key` deletes"
}

func pipelined(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, "lock:"+id) // want `^plain DEL of lock key`
		return nil
	})
}
