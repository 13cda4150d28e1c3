// Package redigo exercises the resolve layer on redigo (both import paths).
package redigo

import (
	"context"
	"fmt"
	"time"

	legacy "github.com/garyburd/redigo/redis"
	"github.com/gomodule/redigo/redis"
)

const releaseSrc = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

var release = redis.NewScript(1, releaseSrc) // want `^\QSCRIPTDEF script=release client=redigo\E$`

var fenced = redis.NewScript(2, // want `^\QSCRIPTDEF script=acquire+fence client=redigo\E$`
	`
	if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
		return redis.call("incr", KEYS[2])
	end
	return nil`)

var bucket = redis.NewScript(-1, `return redis.call("INCR", KEYS[1])`) // want `^\QSCRIPTDEF script=none client=redigo\E$`

func raw(ctx context.Context, pool *redis.Pool, token string, ms int, m map[string]string) {
	c := pool.Get()
	defer c.Close()
	c.Do("SET", "lock:a", token, "NX", "PX", ms)                     // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=ms client=redigo\E$`
	c.Do("set", "lock:a", token, "nx")                               // want `^\QSET key="lock:a" value=token NX ttl=none client=redigo\E$`
	c.Do("SETNX", "lock:a", token)                                   // want `^\QSETNX key="lock:a" value=token client=redigo\E$`
	c.Do("PEXPIRE", "lock:a", ms)                                    // want `^\QPEXPIRE key="lock:a" ttlexpr=ms client=redigo\E$`
	c.Do("DELIFEQ", "lock:a", token)                                 // want `^\QDELIFEQ key="lock:a" match=token client=redigo\E$`
	c.Do("DELEX", "lock:a", "IFEQ", token)                           // want `^\QDELEX key="lock:a" match=token cond=IFEQ client=redigo\E$`
	c.Do("SET", "lock:a", token, "NX", "IFEQ", token, "PX", ms)      // want `^\QSET key="lock:a" value=token match=token cond=IFEQ NX IFEQ ttl=expire ttlexpr=ms client=redigo\E$`
	c.Do("SET", redis.Args{}.Add("lock:a").Add(token).AddFlat(m)...) // want `^\QSET key="lock:a" value=token ttl=unknown incomplete client=redigo\E$`
	c.Do("SET", redis.Args{"lock:a", token}.Add("NX", "PX", ms)...)  // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=ms client=redigo\E$`
	c.Send("INCR", "fence:a")                                        // want `^\QINCR key="fence:a" client=redigo\E$`
	cmd := "GETDEL"
	c.Do(cmd, "lock:a") // want `^\QGETDEL key="lock:a" client=redigo\E$`
	c.Do(fmt.Sprint("GET"), "lock:a")
	c.Do("WAIT", 1, 100)                                              // want `^\QWAIT client=redigo\E$`
	redis.DoContext(c, ctx, "DELIFEQ", "lock:a", token)               // want `^\QDELIFEQ key="lock:a" match=token client=redigo\E$`
	redis.DoWithTimeout(c, time.Second, "SET", "lock:a", token, "XX") // want `^\QSET key="lock:a" value=token XX ttl=none client=redigo\E$`
	if cc, ok := c.(redis.ConnWithContext); ok {
		cc.DoContext(ctx, "UNLINK", "lock:a", "lock:b") // want `^\QUNLINK key="lock:a","lock:b" client=redigo\E$`
	}
	if ct, ok := c.(redis.ConnWithTimeout); ok {
		ct.DoWithTimeout(time.Second, "DEL", "lock:a") // want `^\QDEL key="lock:a" client=redigo\E$`
	}
}

func scripts(ctx context.Context, c redis.Conn, token string, args []interface{}) {
	release.Do(c, "lock:a", token)                        // want `^\QEVALSHA key="lock:a" script=release@-39 client=redigo\E$`
	release.DoContext(ctx, c, "lock:a", token)            // want `^\QEVALSHA key="lock:a" script=release@-40 client=redigo\E$`
	release.SendHash(c, "lock:a", token)                  // want `^\QEVALSHA key="lock:a" script=release@-41 client=redigo\E$`
	fenced.Send(c, "lock:{a}", "fence:{a}", token, 30000) // want `^\QEVAL key="lock:{a}","fence:{a}" value=token script=acquire+fence@-40 client=redigo\E$`
	bucket.Do(c, 1, "hits")                               // want `^\QEVALSHA incomplete script=none@-34 client=redigo\E$`
	release.Do(c, args...)                                // want `^\QEVALSHA incomplete script=release@-44 client=redigo\E$`
	c.Do("EVAL", releaseSrc, 1, "lock:a", token)          // want `^\QEVAL key="lock:a" script=release(inline) client=redigo\E$`
	c.Do("EVALSHA", "abc", 1, "lock:a", token)            // want `^\QEVALSHA key="lock:a" client=redigo\E$`
}

func transactions(c redis.Conn, token string) {
	c.Send("MULTI")
	c.Send("SET", "lock:{a}", token, "NX", "PX", 30000) // want `^\QSET key="lock:{a}" value=token NX ttl=expire ttlexpr=30000 tx=multi@+2 client=redigo\E$`
	c.Send("INCR", "fence:{a}")                         // want `^\QINCR key="fence:{a}" tx=multi@+1 client=redigo\E$`
	c.Do("EXEC")

	c.Do("MULTI")    // want `^\QMULTI client=redigo\E$`
	c.Do("DEL", "x") // want `^\QDEL key="x" client=redigo\E$`
	c.Do("DISCARD")  // want `^\QDISCARD client=redigo\E$`

	c.Send("MULTI")                      // want `^\QMULTI client=redigo\E$`
	c.Send("GET", "never-executed-here") // want `^\QGET key="never-executed-here" client=redigo\E$`
}

func otherConn(c1, c2 redis.Conn) {
	c1.Send("MULTI")
	c2.Send("INCR", "not-in-c1-tx") // want `^\QINCR key="not-in-c1-tx" client=redigo\E$`
	c1.Send("GET", "in-tx")         // want `^\QGET key="in-tx" tx=multi@+1 client=redigo\E$`
	c1.Do("EXEC")
}

func legacyPath(pool *legacy.Pool, token string) {
	c := pool.Get()
	c.Do("SET", "lock:b", token, "NX", "EX", 30)           // want `^\QSET key="lock:b" value=token NX ttl=expire ttlexpr=30 client=redigo\E$`
	legacy.DoWithTimeout(c, time.Second, "DEL", "lock:b")  // want `^\QDEL key="lock:b" client=redigo\E$`
	legacy.NewScript(1, releaseSrc).Do(c, "lock:b", token) // want `^\QEVALSHA key="lock:b" script=release@0 client=redigo\E$` `^\QSCRIPTDEF script=release client=redigo\E$`
}

// Not commands.
type conn struct{}

func (conn) Do(name string, args ...interface{}) (interface{}, error) { return nil, nil }

func negatives(c conn) {
	c.Do("SET", "k", "v")
	_ = redis.Args{}.Add("x")
}

// evalClient forwards Eval(src, keyCount, keysAndArgs) as one EVAL: its
// callers' count splits their list into keys and ARGV.
type evalClient struct{ c redis.Conn }

func (e *evalClient) Eval(src string, keyCount int, keysAndArgs []interface{}) (interface{}, error) {
	args := make([]interface{}, 2+len(keysAndArgs))
	args[0] = src
	args[1] = keyCount
	copy(args[2:], keysAndArgs)
	return e.c.Do("EVAL", args...) // want `^\QEVAL incomplete client=redigo\E$`
}

func (e *evalClient) Spread(src string, keyCount int, keysAndArgs ...interface{}) (interface{}, error) {
	return e.c.Do("EVAL", append([]interface{}{src, keyCount}, keysAndArgs...)...) // want `^\QEVAL incomplete client=redigo\E$`
}

func evalCallers(e *evalClient, token string, n int) {
	kv := []interface{}{"lock:c", token}
	e.Eval(releaseSrc, 1, kv)                // want `^\QEVAL key="lock:c" script=release(inline) client=redigo via=Eval\E$`
	e.Spread(releaseSrc, 1, "lock:d", token) // want `^\QEVAL key="lock:d" script=release(inline) client=redigo via=Spread\E$`
	e.Spread(releaseSrc, n, "lock:d", token) // want `^\QEVAL incomplete script=release(inline) client=redigo via=Spread\E$`
	e.Spread(releaseSrc, 3, "lock:d", token) // want `^\QEVAL incomplete script=release(inline) client=redigo via=Spread\E$`
}
