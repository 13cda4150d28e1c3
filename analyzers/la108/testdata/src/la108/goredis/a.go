// Package goredis: LA108 on go-redis v9.
package goredis

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Its name says lock: lock evidence, as LA101 asks of a compare-and-extend.
var touchLock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

// A compare-and-extend of data (dtm's status CAS): nothing in the package
// takes a lock and no name or key says lock, so its reply says nothing
// about a lock.
var refreshEntry = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("expire", KEYS[1], ARGV[2]) else return 0 end`)

var counter = redis.NewScript(`return redis.call("incr", KEYS[1])`)

// A release whose key the script reads into a Lua local.
var unlockIndirect = redis.NewScript(`local k = redis.call("HGET", KEYS[1], "f") if redis.call("GET", k) == ARGV[1] then return redis.call("DEL", k) end return 0`)

// Not a release: the key in the local is a constant.
var dropConfig = redis.NewScript(`local k = "config" if redis.call("GET", k) == ARGV[1] then return redis.call("DEL", k) end return 0`)

func positives(ctx context.Context, rdb *redis.Client, key, token string) error {
	rdb.Do(ctx, "DELIFEQ", key, token)                               // want `^reply of DELIFEQ key is discarded, but 0 means the lock was lost: examine it and record an incident if it was lost$`
	defer rdb.Do(ctx, "delifeq", key, token)                         // want `^reply of DELIFEQ key is discarded`
	if err := rdb.Do(ctx, "DELIFEQ", key, token).Err(); err != nil { // want `^only the error of DELIFEQ key is checked, but 0 \(lock lost\) is no error: examine the reply and record an incident if it was lost$`
		return err
	}
	rdb.DelExArgs(ctx, key, redis.DelExArgs{Mode: "IFEQ", MatchValue: token})                  // want `^reply of DELEX key IFEQ is discarded`
	rdb.SetIFEQ(ctx, key, token, token, ttl)                                                   // want `^reply of SET key IFEQ is discarded, but nil means the lock was lost: examine it and stop the work if it is lost$`
	_ = rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "IFEQ", MatchValue: token, TTL: ttl}) // want `^reply of SET key IFEQ is discarded`
	unlock.Run(ctx, rdb, []string{key}, token)                                                 // want `^reply of the Lua release script \(EVALSHA key\) is discarded`
	unlockIndirect.Run(ctx, rdb, []string{"owners"}, token)                                    // want `^reply of the Lua release script \(EVALSHA "owners"\) is discarded`
	if err := touchLock.Run(ctx, rdb, []string{key}, token, 30000).Err(); err != nil {         // want `^only the error of the Lua extend script \(EVALSHA key\) is checked, but 0`
		return err
	}
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { // the results are dropped: only the error is seen
		p.Do(ctx, "DELIFEQ", key, token) // want `^only the error of DELIFEQ key is checked`
		return nil
	})
	return err
}

func negatives(ctx context.Context, rdb *redis.Client, key, token string) error {
	n, err := rdb.Do(ctx, "DELIFEQ", key, token).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		log.Printf("lock %s was lost before release", key)
	}
	// go-redis returns redis.Nil for a nil SET IFEQ reply: checking the
	// error examines it.
	if err := rdb.SetIFEQ(ctx, key, token, token, ttl).Err(); err != nil {
		return err
	}
	if unlock.Run(ctx, rdb, []string{key}, token).Val() == int64(0) {
		return errors.New("lost")
	}
	counter.Run(ctx, rdb, []string{"hits"})                                                       // not a lock script
	dropConfig.Run(ctx, rdb, nil, token)                                                          // nor this one
	if err := refreshEntry.Run(ctx, rdb, []string{"entry:" + key}, token, 60).Err(); err != nil { // no lock evidence: data
		return err
	}
	rdb.Del(ctx, key) // plain DEL: LA103's
	cmds, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Do(ctx, "DELIFEQ", key, token)
		return nil
	})
	if err == nil && cmds[0].(*redis.Cmd).Val() == int64(0) {
		return errors.New("lost")
	}
	c := rdb.Do(ctx, "DELIFEQ", key, token)
	return check(c)
}

func check(c *redis.Cmd) error { return c.Err() }

// callLua runs the script its caller passes (dtm's storage helper): each
// call is judged by its own script and evidence.
func callLua(ctx context.Context, rdb *redis.Client, keys []string, script string, args ...any) (any, error) {
	return rdb.Eval(ctx, script, keys, args...).Result()
}

func throughCallLua(ctx context.Context, rdb *redis.Client, gid, status, token string) error {
	// A status compare-and-set that re-sets the record's TTL: data, no lock evidence.
	if _, err := callLua(ctx, rdb, []string{"trans:" + gid}, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("expire", KEYS[1], ARGV[2]) end return 0`, status, 60); err != nil {
		return err
	}
	// A release of a lock key: its reply is LA108's.
	_, err := callLua(ctx, rdb, []string{"lock:" + gid}, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, token) // want `^only the error of the Lua release in callLua is checked`
	return err
}

// A release loaded with SCRIPT LOAD and run by its SHA, kept in a field
// (DoNewsCode/core's leader election): the EVALSHA runs the release.
type leader struct {
	rdb *redis.Client
	sha string
}

func (l *leader) resign(ctx context.Context, host string) error {
	if l.sha == "" {
		var err error
		if l.sha, err = l.rdb.ScriptLoad(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`).Result(); err != nil {
			return err
		}
	}
	_, err := l.rdb.EvalSha(ctx, l.sha, []string{"leader"}, host).Result() // want `^only the error of the Lua release script \(EVALSHA "leader"\) is checked`
	return err
}

// A counter loaded and run by its SHA: its reply is data.
func (l *leader) count(ctx context.Context) error {
	sha := l.rdb.ScriptLoad(ctx, `return redis.call("incr", KEYS[1])`).Val()
	return l.rdb.EvalSha(ctx, sha, []string{"hits"}).Err()
}
