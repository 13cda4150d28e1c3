// Package goredis: LA103 fixes on go-redis v9. A plain DEL of a lock key
// becomes DELIFEQ with the acquire's token when the token is in scope.
package goredis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func work(ctx context.Context, rdb *redis.Client, id string) (int64, error) {
	key := "lock:job:" + id
	token := newToken()
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil || !ok {
		return 0, err
	}
	rdb.Del(ctx, key)                               // want "plain DEL of lock key `key`"
	defer rdb.Del(ctx, key)                         // want "plain DEL of lock key `key`"
	if err := rdb.Del(ctx, key).Err(); err != nil { // want "plain DEL of lock key `key`"
		return 0, err
	}
	rdb.Do(ctx, "del", key)              // want "plain DEL of lock key `key`"
	return rdb.Unlink(ctx, key).Result() // want "plain UNLINK of lock key `key`"
}

// Negatives: the finding stands, no fix.

func replies(ctx context.Context, rdb *redis.Client, token string) int64 {
	rdb.SetNX(ctx, "lock:r", token, ttl)
	n := rdb.Del(ctx, "lock:r").Val() // nofix: (*Cmd).Val() is not an int64 // want `plain DEL`
	cmd := rdb.Del(ctx, "lock:r")     // nofix: the *IntCmd is kept // want `plain DEL`
	rdb.Del(ctx, "lock:r", "other")   // nofix: two keys // want `plain DEL`
	return n + cmd.Val()
}

func acquireElsewhere(ctx context.Context, rdb *redis.Client, id string) {
	token := newToken()
	rdb.SetNX(ctx, "lock:else:"+id, token, ttl)
}

func releaseElsewhere(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Del(ctx, "lock:else:"+id) // nofix: the token is a local of another function // want `plain DEL`
}

func tokenCall(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:call", newToken(), ttl)
	rdb.Del(ctx, "lock:call") // nofix: the token is a call: writing it again draws another token // want `plain DEL`
}

func twoTokens(ctx context.Context, rdb *redis.Client, a, b string, first bool) {
	if first {
		rdb.SetNX(ctx, "lock:two", a, ttl)
	} else {
		rdb.SetNX(ctx, "lock:two", b, ttl)
	}
	rdb.Del(ctx, "lock:two") // nofix: two acquires, two tokens // want `plain DEL`
}

func reassigned(ctx context.Context, rdb *redis.Client) {
	token := newToken()
	rdb.SetNX(ctx, "lock:re", token, ttl)
	token = newToken()
	rdb.Del(ctx, "lock:re") // nofix: token changed since the acquire // want `plain DEL`
}

func pipelined(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetNX(ctx, "lock:pipe", token, ttl)
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, "lock:pipe") // nofix: queued in a pipeline // want `plain DEL`
		return nil
	})
}

func clearFirst(ctx context.Context, rdb *redis.Client, token string) {
	rdb.Del(ctx, "lock:clear") // nofix: a DEL before the acquire is not its release // want `plain DEL`
	rdb.SetNX(ctx, "lock:clear", token, ttl)
}

func patternOnly(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "lock:report") // nofix: no acquire, no token // want `plain DEL`
}

// Mutex: Unlock's m is not Lock's m, so m.token is not the acquire's
// expression where the DEL is.
type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

func (m *Mutex) Lock(ctx context.Context) error { return m.rdb.SetNX(ctx, m.key, m.token, ttl).Err() }

func (m *Mutex) Unlock(ctx context.Context) error {
	return m.rdb.Del(ctx, m.key).Err() // nofix: another receiver // want `plain DEL`
}

// A parenthesised method value is the same call.
func paren(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetNX(ctx, "lock:paren", token, ttl)
	(rdb.Del)(ctx, "lock:paren") // want `plain DEL`
}
