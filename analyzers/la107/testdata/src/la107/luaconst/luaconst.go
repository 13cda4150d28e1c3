// Package luaconst: scripted acquires whose value is a literal of the Lua
// text: every run writes the same value. It matters where the claim is
// held as a lock (a name says lock, or the package frees the key); a mark
// left to expire is compared by no release.
package luaconst

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

// gocraft/work's unique jobs (enqueue.go): the uniqueness lock is SET
// KEYS[2] '1' NX EX, then the push; the worker frees it with a DEL of
// the same key when the job is done (worker.go).
var enqueueUnique = redigo.NewScript(2, `if redis.call('set', KEYS[2], '1', 'NX', 'EX', '86400') then return redis.call('lpush', KEYS[1], ARGV[1]) end return 'dup'`) // want `^lock token is not unique per acquisition: the Lua acquire writes the constant "1"; pass a fresh crypto/rand token per acquire as ARGV$`

func uniqueKey(job string) string { return "unique:" + job }

func enqueue(c redigo.Conn, job string) error {
	_, err := enqueueUnique.Do(c, "queue", uniqueKey(job), job)
	return err
}

func deleteUniqueJob(c redigo.Conn, job string) error {
	_, err := c.Do("DEL", uniqueKey(job))
	return err
}

// A lock script from public code (spring-boot-starter-distributed-lock's
// getLock.lua: SETNX of 0, then PEXPIRE), sent with EVAL by a function
// whose name says lock.
const getLockScript = `local key = KEYS[1]
local ttl = ARGV[1]
local result = redis.call('setnx', key, 0)
if result == 1 then redis.call('pexpire', key, ttl) end return result`

func getLock(ctx context.Context, rdb *redis.Client, key string, ttlMillis int) (bool, error) {
	n, err := rdb.Eval(ctx, getLockScript, []string{key}, ttlMillis).Int() // want `the Lua acquire writes the constant "0";`
	return n == 1, err
}

// Negatives.

// go-zero's lockscript.lua: the token is the caller's ARGV, judged at
// each run (a fresh one here).
var acquire = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
    redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
    return "OK"
else
    return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])
end`)

func takeLock(ctx context.Context, rdb *redis.Client, job string) (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	token := hex.EncodeToString(b)
	return token, acquire.Run(ctx, rdb, []string{"lock:" + job}, token, 30000).Err()
}

// An SMS send cooldown from public code: SET "1" NX EX is a claim left to
// expire (the script itself drops it when the hourly counts are over);
// nothing in Go frees it, no name says lock.
var smsRateLimitScript = redis.NewScript(`local cooldown = redis.call("SET", KEYS[1], "1", "EX", ARGV[1], "NX")
if not cooldown then
  return -1
end
local phone_count = redis.call("INCR", KEYS[2])
if phone_count == 1 then
  redis.call("EXPIRE", KEYS[2], ARGV[2])
end
if phone_count > tonumber(ARGV[3]) then
  redis.call("DEL", KEYS[1])
  return -2
end
return 1`)

func reserveSMSSend(ctx context.Context, rdb *redis.Client, phoneHash string) (bool, error) {
	n, err := smsRateLimitScript.Run(ctx, rdb, []string{"sms:cooldown:" + phoneHash, "sms:hour:phone:" + phoneHash}, 60, 3600, 5).Int()
	return n == 1, err
}

// A readiness flag from public code (a coordinator's SignalReady): SET of
// a literal without NX writes data, takes no lock.
func signalReady(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Eval(ctx, `redis.call("SET", KEYS[1], "1", "EX", ARGV[1])
return redis.call("PUBLISH", KEYS[1], "1")`, []string{key + ":status"}, 3600).Err()
}
