// Package radix exercises the resolve layer on radix v3 and v4.
package radix

import (
	"context"
	"strconv"

	"github.com/mediocregopher/radix/v3"
	radix4 "github.com/mediocregopher/radix/v4"
)

const key = "lock:job"

var release3 = radix.NewEvalScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^\QSCRIPTDEF script=release client=radix/v3\E$`

var release4 = radix4.NewEvalScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^\QSCRIPTDEF script=release client=radix/v4\E$`

func v3(p *radix.Pool, c radix.Client, token string, ms int, m map[string]string) {
	var ok string
	p.Do(radix.Cmd(&ok, "SET", key, token, "NX", "PX", strconv.Itoa(ms))) // want `^\QSET key=key value=token NX ttl=expire ttlexpr=strconv.Itoa(ms) client=radix/v3\E$`
	c.Do(radix.Cmd(nil, "SET", key, token, "NX"))                         // want `^\QSET key=key value=token NX ttl=none client=radix/v3\E$`
	c.Do(radix.FlatCmd(nil, "SET", key, token, "NX", "PX", ms))           // want `^\QSET key=key value=token NX ttl=expire ttlexpr=ms client=radix/v3\E$`
	c.Do(radix.FlatCmd(nil, "HSET", key, m))                              // want `^\QHSET key=key incomplete client=radix/v3\E$`
	c.Do(radix.Cmd(nil, "DELIFEQ", key, token))                           // want `^\QDELIFEQ key=key match=token client=radix/v3\E$`
	act := radix.Cmd(nil, "DELEX", key)
	c.Do(act)                                                                                                                                                           // want `^\QDELEX key=key client=radix/v3\E$`
	c.Do(release3.Cmd(nil, key, token))                                                                                                                                 // want `^\QEVALSHA key=key script=release@-13 client=radix/v3\E$`
	c.Do(release3.FlatCmd(nil, []string{key}, token))                                                                                                                   // want `^\QEVALSHA key=key script=release@-14 client=radix/v3\E$`
	c.Do(radix.Cmd(nil, "EVAL", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`, "1", key, token, "30000")) // want `^\QEVAL key=key script=extend(inline) client=radix/v3\E$`
	c.Do(radix.Pipeline(radix.Cmd(nil, "GET", "a"), radix.Cmd(nil, "GET", "b")))                                                                                        // want `^\QGET key="a" tx=pipeline@0 client=radix/v3\E$` `^\QGET key="b" tx=pipeline@0 client=radix/v3\E$`
	c.Do(radix.WithConn(key, func(conn radix.Conn) error {
		conn.Do(radix.Cmd(nil, "MULTI"))
		conn.Do(radix.Cmd(nil, "SET", "lock:{a}", token, "NX", "PX", "1000")) // want `^\QSET key="lock:{a}" value=token NX ttl=expire ttlexpr="1000" tx=multi@+2 client=radix/v3\E$`
		conn.Do(radix.Cmd(nil, "INCR", "fence:{a}"))                          // want `^\QINCR key="fence:{a}" tx=multi@+1 client=radix/v3\E$`
		return conn.Do(radix.Cmd(nil, "EXEC"))
	}))
}

// actions built here are sent elsewhere: still commands
func queued(token string) []radix.CmdAction {
	return []radix.CmdAction{radix.Cmd(nil, "SET", key, token, "NX")} // want `^\QSET key=key value=token NX ttl=none client=radix/v3\E$`
}

func v4(ctx context.Context, c radix4.Client, token string, ms int) {
	c.Do(ctx, radix4.Cmd(nil, "SET", key, token, "NX", "PX", strconv.Itoa(ms))) // want `^\QSET key=key value=token NX ttl=expire ttlexpr=strconv.Itoa(ms) client=radix/v4\E$`
	c.Do(ctx, radix4.FlatCmd(nil, "SET", key, token, "NX", "PX", ms))           // want `^\QSET key=key value=token NX ttl=expire ttlexpr=ms client=radix/v4\E$`
	c.Do(ctx, release4.Cmd(nil, []string{key}, token))                          // want `^\QEVALSHA key=key script=release@-31 client=radix/v4\E$`
	p := radix4.NewPipeline()
	p.Append(radix4.Cmd(nil, "SET", "lock:{b}", token, "NX", "PX", "1000"))
	p.Append(radix4.Cmd(nil, "INCR", "fence:{b}"))
	c.Do(ctx, p) // want `^\QSET key="lock:{b}" value=token NX ttl=expire ttlexpr="1000" tx=pipeline@0 client=radix/v4\E$` `^\QINCR key="fence:{b}" tx=pipeline@0 client=radix/v4\E$`
}
