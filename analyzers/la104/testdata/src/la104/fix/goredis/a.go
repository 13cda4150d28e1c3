// Package goredis: LA104 fixes on go-redis v9. An extend without a TTL gets
// the lease of the acquire of the same key, when that lease can be written
// at the extend.
package goredis

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const lockTTL = 30 * time.Second

var jobTTL = 10 * time.Second // unexported, set once: stable

// The acquire of "lock:job:"+id is in another function; its lease is a
// package-level constant, visible everywhere.
func acquire(ctx context.Context, rdb *redis.Client, id, token string) bool {
	ok, _ := rdb.SetNX(ctx, "lock:job:"+id, token, lockTTL).Result()
	return ok
}

func extend(ctx context.Context, rdb *redis.Client, id, token string) error {
	if err := rdb.SetIFEQ(ctx, "lock:job:"+id, token, token, 0).Err(); err != nil { // want `SET IFEQ without EX/PX/EXAT/PXAT`
		return err
	}
	rdb.SetIFEQGet(ctx, "lock:job:"+id, token, token, redis.KeepTTL)                               // want `SET IFEQ with KEEPTTL`
	rdb.SetArgs(ctx, "lock:job:"+id, token, redis.SetArgs{Mode: "IFEQ", MatchValue: token})        // want `SET IFEQ without EX/PX/EXAT/PXAT`
	rdb.SetArgs(ctx, "lock:job:"+id, token, redis.SetArgs{Mode: "IFEQ", KeepTTL: true, Get: true}) // want `SET IFEQ with KEEPTTL`
	rdb.SetArgs(ctx, "lock:job:"+id, token, redis.SetArgs{                                         // want `SET IFEQ without EX/PX/EXAT/PXAT`
		Mode:       "IFEQ",
		MatchValue: token,
	})
	rdb.SetArgs(ctx, "lock:job:"+id, token, redis.SetArgs{Mode: "IFEQ", MatchValue: token, TTL: 0}) // want `SET IFEQ without EX/PX/EXAT/PXAT`
	return nil
}

// Acquire and extend in one function: the lease is a local given its value
// once.
func local(ctx context.Context, rdb *redis.Client, token string) {
	ttl := 15 * time.Second
	rdb.SetNX(ctx, "lock:local", token, ttl)
	rdb.SetIFEQ(ctx, "lock:local", token, token, 0) // want `SET IFEQ without EX/PX/EXAT/PXAT`
}

// The lease is written with the time package; extends in other files see
// it through their own import of time (b.go), or not at all (c.go).
func acquireInline(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetNX(ctx, "lock:inline", token, 45*time.Second)
}

// A package variable set once.
func pkgVar(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetNX(ctx, "lock:pkgvar", token, jobTTL)
	rdb.SetIFEQ(ctx, "lock:pkgvar", token, token, 0) // want `SET IFEQ without EX/PX/EXAT/PXAT`
}

// Negatives: the finding stands, no fix.

// The lease is the acquiring function's parameter: not in scope here.
func acquireParam(ctx context.Context, rdb *redis.Client, token string, ttl time.Duration) {
	rdb.SetNX(ctx, "lock:param", token, ttl)
}

func extendParam(ctx context.Context, rdb *redis.Client, token string, ttl time.Duration) {
	rdb.SetIFEQ(ctx, "lock:param", token, token, 0) // nofix: the acquire's ttl is another function's parameter // want `SET IFEQ without`
}

// The lease variable is assigned twice: its value at the extend may differ.
func reassigned(ctx context.Context, rdb *redis.Client, token string, long bool) {
	ttl := 15 * time.Second
	if long {
		ttl = time.Minute
	}
	rdb.SetNX(ctx, "lock:reassigned", token, ttl)
	rdb.SetIFEQ(ctx, "lock:reassigned", token, token, 0) // nofix: ttl is not stable // want `SET IFEQ without`
}

// Two acquires of the key with different leases: which one?
func twoLeases(ctx context.Context, rdb *redis.Client, token string, fast bool) {
	if fast {
		rdb.SetNX(ctx, "lock:two", token, 5*time.Second)
	} else {
		rdb.SetNX(ctx, "lock:two", token, lockTTL)
	}
	rdb.SetIFEQ(ctx, "lock:two", token, token, 0) // nofix: the acquires disagree // want `SET IFEQ without`
}

// The acquire's lease is a call: evaluating it again may give another value.
func leaseCall(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetNX(ctx, "lock:call", token, lease())
	rdb.SetIFEQ(ctx, "lock:call", token, token, 0) // nofix: lease() is a call // want `SET IFEQ without`
}

func lease() time.Duration { return time.Minute }

// The acquire sets an absolute deadline: copied, it would not extend.
func deadline(ctx context.Context, rdb *redis.Client, token string, at time.Time) {
	rdb.SetArgs(ctx, "lock:deadline", token, redis.SetArgs{Mode: "NX", ExpireAt: at})
	rdb.SetIFEQ(ctx, "lock:deadline", token, token, 0) // nofix: EXAT is no lease // want `SET IFEQ without`
}

// The acquire counts milliseconds; the helper takes a time.Duration.
func millis(ctx context.Context, rdb *redis.Client, token string) {
	rdb.Do(ctx, "SET", "lock:ms", token, "NX", "PX", 30000)
	rdb.SetIFEQ(ctx, "lock:ms", token, token, 0) // nofix: 30000 is not a time.Duration // want `SET IFEQ without`
}

// No acquire of the key in the package.
func noAcquire(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetIFEQ(ctx, "lock:orphan", token, token, 0) // nofix: no acquire // want `SET IFEQ without`
}

// The raw form gets the acquire's keyword and amount as written; a
// duration acquire gives PX d.Milliseconds().
func raw(ctx context.Context, rdb *redis.Client, token string) {
	rdb.Do(ctx, "SET", "lock:raw", token, "NX", "PX", 30000)
	rdb.Do(ctx, "SET", "lock:raw", token, "IFEQ", token)            // want `SET IFEQ without EX/PX/EXAT/PXAT`
	rdb.Do(ctx, "set", "lock:raw", token, "ifeq", token, "keepttl") // want `SET IFEQ with KEEPTTL`
	rdb.Do(ctx, "SET", "lock:pkgvar", token, "IFEQ", token)         // want `SET IFEQ without EX/PX/EXAT/PXAT`
}
