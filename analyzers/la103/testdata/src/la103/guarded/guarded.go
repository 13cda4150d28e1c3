// Package guarded: releases in Lua that DEL the lock key without
// comparing its value (cheerego/go-redisson's Mutex.Unlock: EXISTS then
// DEL and PUBLISH): they delete whoever holds the lock now. Which key a
// KEYS entry is, and whether a lock holds it, each run says.
package guarded

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Mutex struct {
	rdb *redis.Client
	Key string
}

// The acquire: EXISTS == 0 then SET and PEXPIRE, a lock by the Go side's
// evidence (a Mutex that frees the key).
func (m *Mutex) TryLock(ctx context.Context, lease int64) (int64, error) {
	return m.rdb.Eval(ctx, `if redis.call('exists', KEYS[1]) == 0 then redis.call('set', KEYS[1], 1) redis.call('pexpire', KEYS[1], ARGV[1]) return 0 end
return redis.call('pttl', KEYS[1])`, []string{m.Key}, lease).Int64()
}

const unlockText = `if (redis.call('exists', KEYS[1]) == 0) then
    return 0;
end;
redis.call('del', KEYS[1]);
redis.call('publish', KEYS[2], ARGV[1]);
return 1;`

func (m *Mutex) Unlock(ctx context.Context) (int64, error) {
	return m.rdb.Eval(ctx, unlockText, []string{m.Key, m.Key + ":channel"}, "unlock").Int64() // want "^plain DEL in Lua of lock key `m.Key` deletes whoever holds it: use DELIFEQ key token and check the reply$"
}

// A native SET NX lock released by a script object that DELs KEYS[1]
// unchecked: reported at each run, on the key it passes.
var forceRelease = redis.NewScript(`redis.call("DEL", KEYS[1]) return redis.call("PUBLISH", KEYS[2], "free")`)

func acquireJob(ctx context.Context, rdb *redis.Client, job, token string) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+job, token, 0).Result()
}

func releaseJob(ctx context.Context, rdb *redis.Client, job string) error {
	return forceRelease.Run(ctx, rdb, []string{"lock:" + job, "events"}).Err() // want "^plain DEL in Lua of lock key `\"lock:\" \\+ job` deletes"
}

// Negatives.

// The same script on a key no lock takes: a cache entry dropped.
func dropEntry(ctx context.Context, rdb *redis.Client, name string) error {
	return forceRelease.Run(ctx, rdb, []string{"cache:" + name, "events"}).Err()
}

// A cache filled by the same guarded set and invalidated by an unchecked
// DEL in Lua: no name says lock, so neither is a lock step.
type Cache struct{ rdb *redis.Client }

func (c *Cache) Set(ctx context.Context, name, v string) error {
	return c.rdb.Eval(ctx, `if redis.call('exists', KEYS[1]) == 0 then redis.call('set', KEYS[1], ARGV[1]) redis.call('pexpire', KEYS[1], 60000) end`, []string{"page:" + name}, v).Err()
}

func (c *Cache) Delete(ctx context.Context, name string) error {
	return c.rdb.Eval(ctx, unlockText, []string{"page:" + name, "page-events"}, "gone").Err()
}

// A compare-and-delete checks the token: LA101's (a native release
// exists), not a plain DEL.
func (m *Mutex) unlockChecked(ctx context.Context, token string) error {
	return m.rdb.Eval(ctx, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, []string{m.Key}, token).Err()
}

// liumingmin/goutils's RdsLuaLock: one script takes the lock with SETEX
// after EXISTS (or extends it for the same owner), and Unlock DELs the key
// without comparing: a guarded set held as a lock, released by anyone.
const takeOrExtend = `if(redis.call("EXISTS",KEYS[1])==1)then if(redis.call("GET",KEYS[1])==ARGV[2])then redis.call("EXPIRE",KEYS[1],ARGV[1]);return 1;else return 0;end;else redis.call("SETEX",KEYS[1],ARGV[1],ARGV[2]);return 1;end`

type RdsLuaLock struct {
	rdb        *redis.Client
	key, value string
	expire     int
}

func (l *RdsLuaLock) TryLock(ctx context.Context) bool {
	val, err := l.rdb.Eval(ctx, takeOrExtend, []string{l.key}, l.expire, l.value).Int()
	return err == nil && val == 1
}

func (l *RdsLuaLock) Unlock(ctx context.Context) {
	l.rdb.Del(ctx, l.key) // want "^plain DEL of lock key `l.key` deletes"
}

// Negative: a session store refreshes a session with the same script
// (create it, or extend it for the same user) and deletes it on logout:
// no name says lock.
type Sessions struct{ rdb *redis.Client }

func (s *Sessions) Touch(ctx context.Context, id, user string) error {
	return s.rdb.Eval(ctx, takeOrExtend, []string{"session:" + id}, 3600, user).Err()
}

func (s *Sessions) Logout(ctx context.Context, id string) error {
	return s.rdb.Del(ctx, "session:"+id).Err()
}
