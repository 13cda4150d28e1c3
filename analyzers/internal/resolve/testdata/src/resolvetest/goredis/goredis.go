// Package goredis exercises the resolve layer on go-redis v9.
package goredis

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

const lockKey = "lock:job"

var ttl = 30 * time.Second

func typedHelpers(ctx context.Context, rdb *redis.Client, token string, d time.Duration) {
	rdb.SetNX(ctx, lockKey, token, 30*time.Second)            // want `^\QSET key=lockKey value=token NX ttl=expire ttlexpr=30 * time.Second client=go-redis/v9\E$`
	rdb.SetNX(ctx, lockKey, token, 0)                         // want `^\QSET key=lockKey value=token NX ttl=none client=go-redis/v9\E$`
	rdb.SetNX(ctx, lockKey, token, redis.KeepTTL)             // want `^\QSET key=lockKey value=token NX ttl=keepttl client=go-redis/v9\E$`
	rdb.SetNX(ctx, lockKey, token, d)                         // want `^\QSET key=lockKey value=token NX ttl=expire ttlexpr=d client=go-redis/v9\E$`
	rdb.SetNX(ctx, lockKey, token, ttl)                       // want `^\QSET key=lockKey value=token NX ttl=expire ttlexpr=ttl client=go-redis/v9\E$`
	rdb.Set(ctx, "k", "v", 0)                                 // want `^\QSET key="k" value="v" ttl=none client=go-redis/v9\E$`
	rdb.Set(ctx, "k", "v", redis.KeepTTL)                     // want `^\QSET key="k" value="v" ttl=keepttl client=go-redis/v9\E$`
	rdb.SetXX(ctx, "k", "v", time.Minute)                     // want `^\QSET key="k" value="v" XX ttl=expire ttlexpr=time.Minute client=go-redis/v9\E$`
	rdb.SetEx(ctx, "k", "v", time.Minute)                     // want `^\QSETEX key="k" value="v" ttlexpr=time.Minute client=go-redis/v9\E$`
	rdb.SetIFEQ(ctx, lockKey, token, token, 0)                // want `^\QSET key=lockKey value=token match=token cond=IFEQ IFEQ ttl=none client=go-redis/v9\E$`
	rdb.SetIFEQ(ctx, lockKey, token, token, d)                // want `^\QSET key=lockKey value=token match=token cond=IFEQ IFEQ ttl=expire ttlexpr=d client=go-redis/v9\E$`
	rdb.SetIFEQGet(ctx, lockKey, token, token, redis.KeepTTL) // want `^\QSET key=lockKey value=token match=token cond=IFEQ IFEQ GET ttl=keepttl client=go-redis/v9\E$`
	rdb.SetIFNE(ctx, lockKey, token, "x", time.Second)        // want `^\QSET key=lockKey value=token match="x" cond=IFNE ttl=expire ttlexpr=time.Second client=go-redis/v9\E$`
	rdb.Del(ctx, lockKey)                                     // want `^\QDEL key=lockKey client=go-redis/v9\E$`
	rdb.Del(ctx, "a", "b")                                    // want `^\QDEL key="a","b" client=go-redis/v9\E$`
	rdb.Unlink(ctx, lockKey)                                  // want `^\QUNLINK key=lockKey client=go-redis/v9\E$`
	rdb.GetDel(ctx, lockKey)                                  // want `^\QGETDEL key=lockKey client=go-redis/v9\E$`
	rdb.Expire(ctx, lockKey, d)                               // want `^\QEXPIRE key=lockKey ttlexpr=d client=go-redis/v9\E$`
	rdb.PExpire(ctx, lockKey, 30*time.Second)                 // want `^\QPEXPIRE key=lockKey ttlexpr=30 * time.Second client=go-redis/v9\E$`
	rdb.PExpireAt(ctx, lockKey, time.Now().Add(d))            // want `^\QPEXPIREAT key=lockKey ttlexpr=time.Now().Add(d) client=go-redis/v9\E$`
	rdb.Incr(ctx, "fence:job")                                // want `^\QINCR key="fence:job" client=go-redis/v9\E$`
	rdb.IncrBy(ctx, "fence:job", 2)                           // want `^\QINCRBY key="fence:job" ttlexpr=2 client=go-redis/v9\E$`
	rdb.Wait(ctx, 1, 100*time.Millisecond)                    // want `^\QWAIT client=go-redis/v9\E$`
	rdb.WaitAOF(ctx, 1, 1, time.Second)                       // want `^\QWAITAOF client=go-redis/v9\E$`
}

func zeroVar(ctx context.Context, rdb *redis.Client, token string) {
	var none time.Duration
	rdb.SetNX(ctx, lockKey, token, none) // want `^\QSET key=lockKey value=token NX ttl=none client=go-redis/v9\E$`
	later := time.Duration(0)
	later = 5 * time.Second
	rdb.SetNX(ctx, lockKey, token, later) // want `^\QSET key=lockKey value=token NX ttl=expire ttlexpr=later client=go-redis/v9\E$`
}

func setArgs(ctx context.Context, rdb redis.UniversalClient, token string, a redis.SetArgs, mode string) {
	rdb.SetArgs(ctx, lockKey, token, redis.SetArgs{Mode: "NX", TTL: 30 * time.Second})                              // want `^\QSET key=lockKey value=token NX ttl=expire ttlexpr=30 * time.Second client=go-redis/v9\E$`
	rdb.SetArgs(ctx, lockKey, token, redis.SetArgs{Mode: "nx"})                                                     // want `^\QSET key=lockKey value=token NX ttl=none client=go-redis/v9\E$`
	rdb.SetArgs(ctx, lockKey, token, redis.SetArgs{Mode: "IFEQ", MatchValue: token, KeepTTL: true})                 // want `^\QSET key=lockKey value=token match=token cond=IFEQ IFEQ ttl=keepttl client=go-redis/v9\E$`
	rdb.SetArgs(ctx, lockKey, token, redis.SetArgs{Mode: "IFEQ", MatchValue: token, ExpireAt: time.Now().Add(ttl)}) // want `^\QSET key=lockKey value=token match=token cond=IFEQ IFEQ ttl=expire ttlexpr=time.Now().Add(ttl) client=go-redis/v9\E$`
	rdb.SetArgs(ctx, lockKey, token, redis.SetArgs{Mode: "IFEQ", MatchValue: token, Get: true})                     // want `^\QSET key=lockKey value=token match=token cond=IFEQ IFEQ GET ttl=none client=go-redis/v9\E$`
	rdb.SetArgs(ctx, lockKey, token, a)                                                                             // want `^\QSET key=lockKey value=token ttl=unknown incomplete client=go-redis/v9\E$`
	rdb.SetArgs(ctx, lockKey, token, redis.SetArgs{Mode: mode, TTL: ttl})                                           // want `^\QSET key=lockKey value=token ttl=expire ttlexpr=ttl incomplete client=go-redis/v9\E$`
	rdb.DelExArgs(ctx, lockKey, redis.DelExArgs{Mode: "IFEQ", MatchValue: token})                                   // want `^\QDELEX key=lockKey match=token cond=IFEQ client=go-redis/v9\E$`
	rdb.DelExArgs(ctx, lockKey, redis.DelExArgs{})                                                                  // want `^\QDELEX key=lockKey client=go-redis/v9\E$`
}

func raw(ctx context.Context, rdb redis.Cmdable, c *redis.Client, token string, args []interface{}) {
	c.Do(ctx, "delifeq", lockKey, token)                                 // want `^\QDELIFEQ key=lockKey match=token client=go-redis/v9\E$`
	c.Do(ctx, "SET", lockKey, token, "NX", "PX", 30000)                  // want `^\QSET key=lockKey value=token NX ttl=expire ttlexpr=30000 client=go-redis/v9\E$`
	c.Do(ctx, "set", lockKey, token, "ifeq", token)                      // want `^\QSET key=lockKey value=token match=token cond=IFEQ IFEQ ttl=none client=go-redis/v9\E$`
	c.Do(ctx, "SETNX", lockKey, token)                                   // want `^\QSETNX key=lockKey value=token client=go-redis/v9\E$`
	c.Do(ctx, "DELEX", lockKey)                                          // want `^\QDELEX key=lockKey client=go-redis/v9\E$`
	c.Do(ctx, "SET", lockKey, token, "NX", strings.ToUpper("px"), 30000) // want `^\QSET key=lockKey value=token NX ttl=unknown incomplete client=go-redis/v9\E$`
	c.Do(ctx, args...)
	c.Do(ctx, []interface{}{"WAIT", 1, 0}...)                    // want `^\QWAIT client=go-redis/v9\E$`
	c.Process(ctx, redis.NewCmd(ctx, "delifeq", lockKey, token)) // want `^\QDELIFEQ key=lockKey match=token client=go-redis/v9\E$`
	cmd := redis.NewBoolCmd(ctx, "set", lockKey, token, "nx", "px", 1000)
	c.Process(ctx, cmd)                         // want `^\QSET key=lockKey value=token NX ttl=expire ttlexpr=1000 client=go-redis/v9\E$`
	rdb.Del(ctx, fmt.Sprintf("lock:%s", token)) // want `^\QDEL key=fmt.Sprintf("lock:%s", token) client=go-redis/v9\E$`
}

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^\QSCRIPTDEF script=release client=go-redis/v9\E$`

const extendSrc = `if redis.call("get", KEYS[1]) == ARGV[1] then ` + `return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`

var extend = redis.NewScriptServerSHA(extendSrc) // want `^\QSCRIPTDEF script=extend client=go-redis/v9\E$`

var counter = redis.NewScript(`local n = redis.call("INCR", KEYS[1]) if n == 1 then redis.call("EXPIRE", KEYS[1], ARGV[1]) end return n`) // want `^\QSCRIPTDEF script=none client=go-redis/v9\E$`

func scripts(ctx context.Context, rdb *redis.Client, token string, src string) {
	unlock.Run(ctx, rdb, []string{lockKey}, token)                                                                                          // want `^\QEVALSHA key=lockKey script=release@-9 client=go-redis/v9\E$`
	extend.EvalSha(ctx, rdb, []string{lockKey}, token, 30000)                                                                               // want `^\QEVALSHA key=lockKey script=extend@-6 client=go-redis/v9\E$`
	counter.Run(ctx, rdb, []string{"hits"}, 60)                                                                                             // want `^\QEVALSHA key="hits" script=none@-5 client=go-redis/v9\E$`
	rdb.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{lockKey}, token) // want `^\QEVAL key=lockKey script=release(inline) client=go-redis/v9\E$`
	rdb.EvalSha(ctx, "abc", []string{lockKey}, token)                                                                                       // want `^\QEVALSHA key=lockKey client=go-redis/v9\E$`
	rdb.Eval(ctx, src, []string{lockKey}, token)                                                                                            // want `^\QEVAL key=lockKey client=go-redis/v9\E$`
	local := redis.NewScript(src)                                                                                                           // want `^\QSCRIPTDEF client=go-redis/v9\E$`
	local.Run(ctx, rdb, []string{lockKey})                                                                                                  // want `^\QEVALSHA key=lockKey client=go-redis/v9\E$`
	rdb.Do(ctx, "EVAL", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, 1, lockKey, token)  // want `^\QEVAL key=lockKey script=release(inline) client=go-redis/v9\E$`
}

func transactions(ctx context.Context, rdb *redis.Client, token string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, "lock:{job}", token, ttl)            // want `^\QSET key="lock:{job}" value=token NX ttl=expire ttlexpr=ttl tx=multi@-1 client=go-redis/v9\E$`
		pipe.Incr(ctx, "fence:{job}")                        // want `^\QINCR key="fence:{job}" tx=multi@-2 client=go-redis/v9\E$`
		unlock.Run(ctx, pipe, []string{"lock:{job}"}, token) // want `^\QEVALSHA key="lock:{job}" script=release@-24 tx=multi@-3 client=go-redis/v9\E$`
		return nil
	})
	pipe := rdb.TxPipeline()
	pipe.SetNX(ctx, "lock:{a}", token, ttl) // want `^\QSET key="lock:{a}" value=token NX ttl=expire ttlexpr=ttl tx=multi@+2 client=go-redis/v9\E$`
	pipe.Incr(ctx, "fence:{a}")             // want `^\QINCR key="fence:{a}" tx=multi@+1 client=go-redis/v9\E$`
	pipe.Exec(ctx)

	p := rdb.Pipeline()
	p.Get(ctx, "x") // want `^\QGET key="x" tx=pipeline@+1 client=go-redis/v9\E$`
	p.Exec(ctx)

	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, "y") // want `^\QDEL key="y" tx=pipeline@-1 client=go-redis/v9\E$`
		return nil
	})

	rdb.Watch(ctx, func(tx *redis.Tx) error {
		tx.Watch(ctx, "balance") // want `^\QWATCH key="balance" client=go-redis/v9\E$`
		tx.Get(ctx, "balance")   // want `^\QGET key="balance" client=go-redis/v9\E$`
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, "balance", 1, 0) // want `^\QSET key="balance" value=1 ttl=none tx=multi@-1 client=go-redis/v9\E$`
			return nil
		})
		return err
	}, "balance")
}

// Calls that look like commands but are not.
type cache struct{}

func (cache) Set(key string, v any, d time.Duration) {}
func (cache) Del(key string)                         {}

func negatives(ctx context.Context, s *redis.SentinelClient) {
	var c cache
	c.Set(lockKey, 1, 0)
	c.Del(lockKey)
	strings.NewReplacer("a", "b").Replace("x")
	s.Set(ctx, "mymaster", "quorum", "2")
}
