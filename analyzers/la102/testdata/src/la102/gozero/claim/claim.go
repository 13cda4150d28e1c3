// Package claim: go-zero's RedisLock acquired on a message digest with a
// one-hour TTL and never released nor extended anywhere in the package is
// a write-once dedup claim, like a SET NX marker: not a lock, so not
// LA102's. The same never-released acquire on a key that says lock is.
package claim

import (
	"crypto/md5"
	"encoding/hex"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

const expiration = 3600

func consume(red *redis.Redis, body []byte, handle func([]byte)) {
	sum := md5.Sum(body)
	key := hex.EncodeToString(sum[:])
	redisLock := redis.NewRedisLock(red, key)
	redisLock.SetExpire(expiration)
	if ok, err := redisLock.Acquire(); err == nil && ok {
		handle(body)
	}
}

func cron(red *redis.Redis, job string, run func()) {
	l := redis.NewRedisLock(red, "lock:"+job)
	l.SetExpire(60)
	if ok, _ := l.Acquire(); ok { // want `^RedisLock.Acquire \(acquire\) runs Lua`
		run()
	}
}

// A lock object handed to the caller is released there: still a lock.
func acquireFor(red *redis.Redis, key string) (*redis.RedisLock, bool) {
	l := redis.NewRedisLock(red, key)
	ok, _ := l.Acquire() // want `^RedisLock.Acquire \(acquire\) runs Lua`
	return l, ok
}
