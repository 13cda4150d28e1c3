// Package clients calls the REAL client modules in every form the resolve
// layer reads; TestRealClients in analyzers/internal/resolve states what the
// layer sees, so the stubs cannot drift from the real receiver shapes.
package clients

import (
	"context"
	"strconv"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	redigo "github.com/gomodule/redigo/redis"
	radix "github.com/mediocregopher/radix/v3"
	radix4 "github.com/mediocregopher/radix/v4"
	"github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeylock"
	zero "github.com/zeromicro/go-zero/core/stores/redis"
)

var Unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^\QSCRIPTDEF script=release client=go-redis/v9\E$`

func GoRedisForms(ctx context.Context, rdb *redis.Client, u redis.UniversalClient, cc *redis.ClusterClient, token string) {
	rdb.SetNX(ctx, "lock:a", token, 0)                                                               // want `^\QSET key="lock:a" value=token NX ttl=none client=go-redis/v9\E$`
	u.SetNX(ctx, "lock:a", token, time.Second)                                                       // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=time.Second client=go-redis/v9\E$`
	cc.SetIFEQ(ctx, "lock:a", token, token, 0)                                                       // want `^\QSET key="lock:a" value=token match=token cond=IFEQ IFEQ ttl=none client=go-redis/v9\E$`
	rdb.SetArgs(ctx, "lock:a", token, redis.SetArgs{Mode: "IFEQ", MatchValue: token, KeepTTL: true}) // want `^\QSET key="lock:a" value=token match=token cond=IFEQ IFEQ ttl=keepttl client=go-redis/v9\E$`
	u.DelExArgs(ctx, "lock:a", redis.DelExArgs{Mode: "IFEQ", MatchValue: token})                     // want `^\QDELEX key="lock:a" match=token cond=IFEQ client=go-redis/v9\E$`
	u.Del(ctx, "lock:a")                                                                             // want `^\QDEL key="lock:a" client=go-redis/v9\E$`
	rdb.Do(ctx, "delifeq", "lock:a", token)                                                          // want `^\QDELIFEQ key="lock:a" match=token client=go-redis/v9\E$`
	u.Do(ctx, "SETNX", "lock:a", token)                                                              // want `^\QSETNX key="lock:a" value=token client=go-redis/v9\E$`
	rdb.Wait(ctx, 1, time.Second)                                                                    // want `^\QWAIT client=go-redis/v9\E$`
	rdb.WaitAOF(ctx, 1, 1, time.Second)                                                              // want `^\QWAITAOF client=go-redis/v9\E$`
	rdb.Process(ctx, redis.NewCmd(ctx, "delifeq", "k", "v"))                                         // want `^\QDELIFEQ key="k" match="v" client=go-redis/v9\E$`
	Unlock.Run(ctx, u, []string{"lock:a"}, token)                                                    // want `^\QEVALSHA key="lock:a" script=release@-14 client=go-redis/v9\E$`
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{a}", token, time.Second) // want `^\QSET key="lock:{a}" value=token NX ttl=expire ttlexpr=time.Second tx=multi@-1 client=go-redis/v9\E$`
		p.Incr(ctx, "fence:{a}")                     // want `^\QINCR key="fence:{a}" tx=multi@-2 client=go-redis/v9\E$`
		return nil
	})
	pipe := cc.TxPipeline()
	pipe.Incr(ctx, "x") // want `^\QINCR key="x" tx=multi@+1 client=go-redis/v9\E$`
	pipe.Exec(ctx)
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		tx.Watch(ctx, "k") // want `^\QWATCH key="k" client=go-redis/v9\E$`
		return nil
	}, "k")
	conn := rdb.Conn()
	conn.SetNX(ctx, "lock:c", token, 0) // want `^\QSET key="lock:c" value=token NX ttl=none client=go-redis/v9\E$`
}

func ValkeyForms(ctx context.Context, c valkey.Client, token string) {
	c.Do(ctx, c.B().Set().Key("lock:a").Value(token).Nx().Px(time.Second).Build())             // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=time.Second client=valkey-go\E$`
	c.Do(ctx, c.B().Set().Key("lock:a").Value(token).Ifeq(token).Build())                      // want `^\QSET key="lock:a" value=token match=token cond=IFEQ IFEQ ttl=none client=valkey-go\E$`
	c.Do(ctx, c.B().Delifeq().Key("lock:a").Value(token).Build())                              // want `^\QDELIFEQ key="lock:a" match=token client=valkey-go\E$`
	c.Do(ctx, c.B().Delex().Key("lock:a").Build())                                             // want `^\QDELEX key="lock:a" client=valkey-go\E$`
	c.DoMulti(ctx, c.B().Multi().Build(), c.B().Incr().Key("f").Build(), c.B().Exec().Build()) // want `^\QINCR key="f" tx=multi@0 client=valkey-go\E$`
	c.DoCache(ctx, c.B().Get().Key("k").Cache(), time.Second)                                  // want `^\QGET key="k" client=valkey-go\E$`
	c.Do(ctx, c.B().Arbitrary("DELIFEQ").Keys("k").Args(token).Build())                        // want `^\QDELIFEQ key="k" match=token client=valkey-go\E$`
	valkey.NewLuaScript(`return 1`).Exec(ctx, c, []string{"k"}, nil)                           // want `^\QEVALSHA key="k" script=none@0 client=valkey-go\E$` `^\QSCRIPTDEF script=none client=valkey-go\E$`
	l, _ := valkeylock.NewLocker(valkeylock.LockerOption{})                                    // want `^\QLIB valkeylock.NewLocker step=locker client=valkeylock\E$`
	l.WithContext(ctx, "job")                                                                  // want `^\QLIB valkeylock.WithContext step=acquire key="job" client=valkeylock\E$`
}

func RedigoForms(p *redigo.Pool, token string) {
	c := p.Get()
	c.Send("MULTI")
	c.Send("SET", "lock:{a}", token, "NX", "PX", 1000) // want `^\QSET key="lock:{a}" value=token NX ttl=expire ttlexpr=1000 tx=multi@+2 client=redigo\E$`
	c.Send("INCR", "fence:{a}")                        // want `^\QINCR key="fence:{a}" tx=multi@+1 client=redigo\E$`
	c.Do("EXEC")
	redigo.DoWithTimeout(c, time.Second, "DELIFEQ", "k", token) // want `^\QDELIFEQ key="k" match=token client=redigo\E$`
	redigo.NewScript(1, `return 1`).Do(c, "k")                  // want `^\QEVALSHA key="k" script=none@0 client=redigo\E$` `^\QSCRIPTDEF script=none client=redigo\E$`
}

func Libs(ctx context.Context, rdb *redis.Client) {
	m := redsync.New(goredis.NewPool(rdb)).NewMutex("job")       // want `^\QLIB redsync.NewMutex step=locker key="job" client=redsync\E$`
	m.Lock()                                                     // want `^\QLIB redsync.Lock step=acquire client=redsync\E$`
	m.Unlock()                                                   // want `^\QLIB redsync.Unlock step=release client=redsync\E$`
	lk, _ := redislock.Obtain(ctx, rdb, "job", time.Second, nil) // want `^\QLIB redislock.Obtain step=acquire key="job" ttlexpr=time.Second client=redislock\E$`
	lk.Release(ctx)                                              // want `^\QLIB redislock.Release step=release client=redislock\E$`
}

var zeroUnlock = zero.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^\QSCRIPTDEF script=release client=go-zero\E$`

func GoZeroForms(ctx context.Context, rds *zero.Redis, token string) {
	rds.SetnxEx("lock:a", token, 30)                     // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=30 client=go-zero\E$`
	rds.SetnxCtx(ctx, "lock:a", token)                   // want `^\QSET key="lock:a" value=token NX ttl=none client=go-zero\E$`
	rds.Setex("k", "v", 10)                              // want `^\QSETEX key="k" value="v" ttlexpr=10 client=go-zero\E$`
	rds.DelCtx(ctx, "lock:a")                            // want `^\QDEL key="lock:a" client=go-zero\E$`
	rds.Expire("lock:a", 30)                             // want `^\QEXPIRE key="lock:a" ttlexpr=30 client=go-zero\E$`
	rds.Incr("fence:a")                                  // want `^\QINCR key="fence:a" client=go-zero\E$`
	rds.EvalCtx(ctx, `return 1`, []string{"k"})          // want `^\QEVAL key="k" script=none(inline) client=go-zero\E$`
	rds.ScriptRun(zeroUnlock, []string{"lock:a"}, token) // want `^\QEVALSHA key="lock:a" script=release@-10 client=go-zero\E$`
	rds.Pipelined(func(p zero.Pipeliner) error {
		p.Incr(ctx, "x") // want `^\QINCR key="x" tx=pipeline@-1 client=go-redis/v9\E$`
		return nil
	})
	l := zero.NewRedisLock(rds, "job") // want `^\QLIB go-zero.NewRedisLock step=locker key="job" client=go-zero\E$`
	l.AcquireCtx(ctx)                  // want `^\QLIB go-zero.AcquireCtx step=acquire client=go-zero\E$`
	l.Release()                        // want `^\QLIB go-zero.Release step=release client=go-zero\E$`
}

var release3 = radix.NewEvalScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^\QSCRIPTDEF script=release client=radix/v3\E$`

var release4 = radix4.NewEvalScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^\QSCRIPTDEF script=release client=radix/v4\E$`

func RadixV3Forms(p *radix.Pool, c radix.Client, token string, ms int) {
	var ok string
	p.Do(radix.Cmd(&ok, "SET", "lock:a", token, "NX", "PX", strconv.Itoa(ms)))   // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=strconv.Itoa(ms) client=radix/v3\E$`
	c.Do(radix.FlatCmd(nil, "SET", "lock:a", token, "NX", "PX", ms))             // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=ms client=radix/v3\E$`
	c.Do(radix.Cmd(nil, "DELIFEQ", "lock:a", token))                             // want `^\QDELIFEQ key="lock:a" match=token client=radix/v3\E$`
	c.Do(release3.Cmd(nil, "lock:a", token))                                     // want `^\QEVALSHA key="lock:a" script=release@-9 client=radix/v3\E$`
	c.Do(release3.FlatCmd(nil, []string{"lock:a"}, token))                       // want `^\QEVALSHA key="lock:a" script=release@-10 client=radix/v3\E$`
	c.Do(radix.Pipeline(radix.Cmd(nil, "GET", "a"), radix.Cmd(nil, "GET", "b"))) // want `^\QGET key="a" tx=pipeline@0 client=radix/v3\E$` `^\QGET key="b" tx=pipeline@0 client=radix/v3\E$`
	c.Do(radix.WithConn("lock:{a}", func(conn radix.Conn) error {
		conn.Do(radix.Cmd(nil, "MULTI"))
		conn.Do(radix.Cmd(nil, "SET", "lock:{a}", token, "NX", "PX", "1000")) // want `^\QSET key="lock:{a}" value=token NX ttl=expire ttlexpr="1000" tx=multi@+2 client=radix/v3\E$`
		conn.Do(radix.Cmd(nil, "INCR", "fence:{a}"))                          // want `^\QINCR key="fence:{a}" tx=multi@+1 client=radix/v3\E$`
		return conn.Do(radix.Cmd(nil, "EXEC"))
	}))
}

func RadixV4Forms(ctx context.Context, c radix4.Client, token string, ms int) {
	c.Do(ctx, radix4.Cmd(nil, "SET", "lock:a", token, "NX", "PX", strconv.Itoa(ms))) // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=strconv.Itoa(ms) client=radix/v4\E$`
	c.Do(ctx, radix4.FlatCmd(nil, "SET", "lock:a", token, "NX", "PX", ms))           // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=ms client=radix/v4\E$`
	c.Do(ctx, release4.Cmd(nil, []string{"lock:a"}, token))                          // want `^\QEVALSHA key="lock:a" script=release@-21 client=radix/v4\E$`
	p := radix4.NewPipeline()
	p.Append(radix4.Cmd(nil, "SET", "lock:{b}", token, "NX", "PX", "1000"))
	p.Append(radix4.Cmd(nil, "INCR", "fence:{b}"))
	c.Do(ctx, p) // want `^\QSET key="lock:{b}" value=token NX ttl=expire ttlexpr="1000" tx=pipeline@0 client=radix/v4\E$` `^\QINCR key="fence:{b}" tx=pipeline@0 client=radix/v4\E$`
}
