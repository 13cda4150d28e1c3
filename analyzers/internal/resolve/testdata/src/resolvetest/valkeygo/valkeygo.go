// Package valkeygo exercises the resolve layer on valkey-go.
package valkeygo

import (
	"context"
	"strconv"
	"time"

	"github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeylock"
)

const key = "lock:job"

func builders(ctx context.Context, c valkey.Client, token string, ttl time.Duration) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(ttl).Build())                      // want `^\QSET key=key value=token NX ttl=expire ttlexpr=ttl client=valkey-go\E$`
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Build())                              // want `^\QSET key=key value=token NX ttl=none client=valkey-go\E$`
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Get().ExSeconds(30).Build())          // want `^\QSET key=key value=token NX GET ttl=expire ttlexpr=30 client=valkey-go\E$`
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).PxMilliseconds(30000).Build()) // want `^\QSET key=key value=token match=token cond=IFEQ IFEQ ttl=expire ttlexpr=30000 client=valkey-go\E$`
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Build())                       // want `^\QSET key=key value=token match=token cond=IFEQ IFEQ ttl=none client=valkey-go\E$`
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Keepttl().Build())             // want `^\QSET key=key value=token match=token cond=IFEQ IFEQ ttl=keepttl client=valkey-go\E$`
	c.Do(ctx, c.B().Setnx().Key(key).Value(token).Build())                                 // want `^\QSETNX key=key value=token client=valkey-go\E$`
	c.Do(ctx, c.B().Delifeq().Key(key).Value(token).Build())                               // want `^\QDELIFEQ key=key match=token client=valkey-go\E$`
	c.Do(ctx, c.B().Delex().Key(key).Ifeq(token).Build())                                  // want `^\QDELEX key=key match=token cond=IFEQ client=valkey-go\E$`
	c.Do(ctx, c.B().Delex().Key(key).Build())                                              // want `^\QDELEX key=key client=valkey-go\E$`
	c.Do(ctx, c.B().Del().Key(key, "other").Build())                                       // want `^\QDEL key=key,"other" client=valkey-go\E$`
	c.Do(ctx, c.B().Unlink().Key(key).Build())                                             // want `^\QUNLINK key=key client=valkey-go\E$`
	c.Do(ctx, c.B().Getdel().Key(key).Build())                                             // want `^\QGETDEL key=key client=valkey-go\E$`
	c.Do(ctx, c.B().Pexpire().Key(key).Milliseconds(30000).Build())                        // want `^\QPEXPIRE key=key ttlexpr=30000 client=valkey-go\E$`
	c.Do(ctx, c.B().Expire().Key(key).Seconds(30).Nx().Build())                            // want `^\QEXPIRE key=key ttlexpr=30 client=valkey-go\E$`
	c.Do(ctx, c.B().Incr().Key("fence:job").Build())                                       // want `^\QINCR key="fence:job" client=valkey-go\E$`
	c.Do(ctx, c.B().Wait().Numreplicas(1).Timeout(100).Build())                            // want `^\QWAIT client=valkey-go\E$`
	c.Do(ctx, c.B().Waitaof().Numlocal(1).Numreplicas(1).Timeout(100).Build())             // want `^\QWAITAOF client=valkey-go\E$`
	c.DoCache(ctx, c.B().Get().Key(key).Cache(), time.Minute)                              // want `^\QGET key=key client=valkey-go\E$`
	err := c.Do(ctx, c.B().Set().Key(key).Value(token).                                    // want `^\QSET key=key value=token NX ttl=expire ttlexpr=ttl client=valkey-go\E$`
												Nx().
												Px(ttl).
												Build()).Error()
	_ = err
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(ttl).Build().Pin()) // want `^\QSET key=key value=token NX ttl=expire ttlexpr=ttl client=valkey-go\E$`
}

func split(ctx context.Context, c valkey.Client, token string, ttl time.Duration, force bool) {
	cmd := c.B().Set().Key(key).Value(token).Nx().Px(ttl).Build()
	c.Do(ctx, cmd) // want `^\QSET key=key value=token NX ttl=expire ttlexpr=ttl client=valkey-go\E$`

	base := c.B().Set().Key(key).Value(token)
	withNX := base.Nx()
	c.Do(ctx, withNX.Build()) // want `^\QSET key=key value=token NX ttl=none client=valkey-go\E$`

	changing := c.B().Set().Key(key).Value(token).Nx().Build()
	if force {
		changing = c.B().Set().Key(key).Value(token).Build()
	}
	c.Do(ctx, changing) // want `^\QSET key=key value=token NX ttl=unknown incomplete client=valkey-go\E$` `^\QSET key=key value=token ttl=unknown incomplete client=valkey-go\E$`

	b := c.B()
	c.Do(ctx, b.Delifeq().Key(key).Value(token).Build()) // want `^\QDELIFEQ key=key match=token client=valkey-go\E$`
}

func arbitrary(ctx context.Context, c valkey.Client, token string, tokens []string) {
	c.Do(ctx, c.B().Arbitrary("DELIFEQ").Keys(key).Args(token).Build())                  // want `^\QDELIFEQ key=key match=token client=valkey-go\E$`
	c.Do(ctx, c.B().Arbitrary("SET").Keys(key).Args(token, "NX", "IFEQ", token).Build()) // want `^\QSET key=key value=token match=token cond=IFEQ NX IFEQ ttl=none client=valkey-go\E$`
	c.Do(ctx, c.B().Arbitrary("SET", key, token, "IFEQ", token).Build())                 // want `^\QSET key=key value=token match=token cond=IFEQ IFEQ ttl=none client=valkey-go\E$`
	c.Do(ctx, c.B().Arbitrary(tokens...).Build())
}

func multi(ctx context.Context, c valkey.Client, token string) {
	c.DoMulti(ctx, // want `^\QSET key="lock:{job}" value=token NX ttl=expire ttlexpr=30 * time.Second tx=multi@0 client=valkey-go\E$` `^\QINCR key="fence:{job}" tx=multi@0 client=valkey-go\E$`
		c.B().Multi().Build(),
		c.B().Set().Key("lock:{job}").Value(token).Nx().Px(30*time.Second).Build(),
		c.B().Incr().Key("fence:{job}").Build(),
		c.B().Exec().Build(),
	)
	c.DoMulti(ctx, c.B().Get().Key("a").Build(), c.B().Get().Key("b").Build()) // want `^\QGET key="a" tx=pipeline@0 client=valkey-go\E$` `^\QGET key="b" tx=pipeline@0 client=valkey-go\E$`

	cmds := make(valkey.Commands, 0, 4)
	cmds = append(cmds, c.B().Multi().Build())
	cmds = append(cmds, c.B().Set().Key("lock:{x}").Value(token).Nx().PxMilliseconds(1000).Build(), c.B().Incr().Key("fence:{x}").Build())
	cmds = append(cmds, c.B().Exec().Build())
	c.DoMulti(ctx, cmds...) // want `^\QSET key="lock:{x}" value=token NX ttl=expire ttlexpr=1000 tx=multi@0 client=valkey-go\E$` `^\QINCR key="fence:{x}" tx=multi@0 client=valkey-go\E$`

	c.DoMulti(ctx, c.B().Watch().Key("w").Build(), c.B().Multi().Build(), c.B().Incr().Key("n").Build(), c.B().Exec().Build()) // want `^\QWATCH key="w" tx=pipeline@0 client=valkey-go\E$` `^\QINCR key="n" tx=multi@0 client=valkey-go\E$`

	c.Dedicated(func(d valkey.DedicatedClient) error {
		d.Do(ctx, d.B().Watch().Key("lock:{y}").Build()) // want `^\QWATCH key="lock:{y}" client=valkey-go\E$`
		d.Do(ctx, d.B().Multi().Build())
		d.Do(ctx, d.B().Set().Key("lock:{y}").Value(token).Nx().Px(time.Second).Build()) // want `^\QSET key="lock:{y}" value=token NX ttl=expire ttlexpr=time.Second tx=multi@+1 client=valkey-go\E$`
		d.Do(ctx, d.B().Exec().Build())
		return nil
	})
}

var delkey = valkey.NewLuaScript(`if redis.call("GET",KEYS[1]) == ARGV[1] then return redis.call("DEL",KEYS[1]) end;return 0`) // want `^\QSCRIPTDEF script=release client=valkey-go\E$`

var readonly = valkey.NewLuaScriptReadOnlyNoSha(`return redis.call("GET", KEYS[1])`) // want `^\QSCRIPTDEF script=none client=valkey-go\E$`

func lua(ctx context.Context, c valkey.Client, token string) {
	delkey.Exec(ctx, c, []string{key}, []string{token})                                                                                                                                                     // want `^\QEVALSHA key=key script=release@-5 client=valkey-go\E$`
	readonly.Exec(ctx, c, []string{key}, nil)                                                                                                                                                               // want `^\QEVAL_RO key=key script=none@-4 client=valkey-go\E$`
	delkey.ExecMulti(ctx, c, valkey.LuaExec{Keys: []string{"a"}, Args: []string{token}}, valkey.LuaExec{Keys: []string{"b"}})                                                                               // want `^\QEVALSHA key="a" script=release@-7 client=valkey-go\E$` `^\QEVALSHA key="b" script=release@-7 client=valkey-go\E$`
	c.Do(ctx, c.B().Eval().Script(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`).Numkeys(1).Key(key).Arg(token, strconv.Itoa(30000)).Build()) // want `^\QEVAL key=key script=extend(inline) client=valkey-go\E$`
	c.Do(ctx, c.B().Evalsha().Sha1("abc").Numkeys(1).Key(key).Build())                                                                                                                                      // want `^\QEVALSHA key=key client=valkey-go\E$`
}

// A chain no sender consumes here is still a command, reported where it is built.
func leftover(c valkey.Client, token string) []valkey.Completed {
	return []valkey.Completed{c.B().Set().Key(key).Value(token).Nx().Build()} // want `^\QSET key=key value=token NX ttl=none client=valkey-go\E$`
}

func locker(ctx context.Context) {
	l, _ := valkeylock.NewLocker(valkeylock.LockerOption{KeyMajority: 1}) // want `^\QLIB valkeylock.NewLocker step=locker client=valkeylock\E$`
	l.WithContext(ctx, "job")                                             // want `^\QLIB valkeylock.WithContext step=acquire key="job" client=valkeylock\E$`
	l.TryWithContext(ctx, "job")                                          // want `^\QLIB valkeylock.TryWithContext step=acquire key="job" client=valkeylock\E$`
	l.ForceWithContext(ctx, "job")                                        // want `^\QLIB valkeylock.ForceWithContext step=acquire key="job" client=valkeylock\E$`
}

// ExecMulti of a spread slice: one run per element visible before the send,
// and one incomplete run when the elements cannot be seen.
func luaSpread(ctx context.Context, c valkey.Client, more []valkey.LuaExec) {
	execs := []valkey.LuaExec{{Keys: []string{"a"}}}
	execs = append(execs, valkey.LuaExec{Keys: []string{"b"}})
	delkey.ExecMulti(ctx, c, execs...) // want `^\QEVALSHA key="a" script=release@-29 client=valkey-go\E$` `^\QEVALSHA key="b" script=release@-29 client=valkey-go\E$`
	rest := more[1:]
	delkey.ExecMulti(ctx, c, rest...) // want `^\QEVALSHA incomplete script=release@-31 client=valkey-go\E$`
}
