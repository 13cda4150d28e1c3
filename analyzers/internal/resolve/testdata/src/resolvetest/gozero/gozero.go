// Package gozero exercises the resolve layer on go-zero's Redis wrapper
// and its RedisLock.
package gozero

import (
	"context"
	"time"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

const release = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

var unlock = redis.NewScript(release) // want `^\QSCRIPTDEF script=release client=go-zero\E$`

func helpers(ctx context.Context, rds *redis.Redis, token string) {
	rds.SetnxEx("lock:a", token, 30)                 // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=30 client=go-zero\E$`
	rds.Setnx("lock:a", token)                       // want `^\QSET key="lock:a" value=token NX ttl=none client=go-zero\E$`
	rds.SetnxExCtx(ctx, "lock:a", token, 0)          // want `^\QSET key="lock:a" value=token NX ttl=none client=go-zero\E$`
	rds.Set("k", "v")                                // want `^\QSET key="k" value="v" ttl=none client=go-zero\E$`
	rds.Setex("k", "v", 10)                          // want `^\QSETEX key="k" value="v" ttlexpr=10 client=go-zero\E$`
	rds.Del("lock:a")                                // want `^\QDEL key="lock:a" client=go-zero\E$`
	rds.DelCtx(ctx, "a", "b")                        // want `^\QDEL key="a","b" client=go-zero\E$`
	rds.Expire("lock:a", 30)                         // want `^\QEXPIRE key="lock:a" ttlexpr=30 client=go-zero\E$`
	rds.Incr("fence:a")                              // want `^\QINCR key="fence:a" client=go-zero\E$`
	rds.Eval(release, []string{"lock:a"}, token)     // want `^\QEVAL key="lock:a" script=release(inline) client=go-zero\E$`
	rds.ScriptRun(unlock, []string{"lock:a"}, token) // want `^\QEVALSHA key="lock:a" script=release@-13 client=go-zero\E$`
	rds.ScriptLoad(release)
}

func pipelines(ctx context.Context, rds *redis.Redis, token string) {
	rds.Pipelined(func(p redis.Pipeliner) error {
		p.Incr(ctx, "x") // want `^\QINCR key="x" tx=pipeline@-1 client=go-redis/v9\E$`
		return nil
	})
	pipe, _ := rds.TxPipeline()
	pipe.SetNX(ctx, "lock:{a}", token, time.Second) // want `^\QSET key="lock:{a}" value=token NX ttl=expire ttlexpr=time.Second tx=multi@+2 client=go-redis/v9\E$`
	pipe.Incr(ctx, "fence:{a}")                     // want `^\QINCR key="fence:{a}" tx=multi@+1 client=go-redis/v9\E$`
	pipe.Exec(ctx)
}

func lock(ctx context.Context, rds *redis.Redis) {
	l := redis.NewRedisLock(rds, "lock:job") // want `^\QLIB go-zero.NewRedisLock step=locker key="lock:job" client=go-zero\E$`
	l.SetExpire(10)
	l.Acquire()       // want `^\QLIB go-zero.Acquire step=acquire client=go-zero\E$`
	l.ReleaseCtx(ctx) // want `^\QLIB go-zero.ReleaseCtx step=release client=go-zero\E$`
}
