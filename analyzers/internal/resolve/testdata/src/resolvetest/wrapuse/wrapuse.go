package wrapuse

// Calls of another package's wrappers (resolvetest/wraplib) resolve to
// what they send, with these arguments.

import (
	"context"
	"time"

	"resolvetest/wraplib"
)

var unlock = wraplib.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`) // want `^\QSCRIPTDEF script=release client=go-redis/v9 via=NewScript\E$`

func use(ctx context.Context, l *wraplib.Locker, c wraplib.Conn, m wraplib.Mixed, d wraplib.Disagree, token string) {
	l.Acquire(ctx, "lock:a", token, 0)                                                                                                     // want `^\QSET key="lock:a" value=token NX ttl=none client=go-redis/v9 via=Acquire\E$`
	l.Acquire(ctx, "lock:a", token, 10*time.Second)                                                                                        // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=10 * time.Second client=go-redis/v9 via=Acquire\E$`
	_, _ = l.Release(ctx, "lock:a", token)                                                                                                 // want `^\QEVALSHA key="lock:a" script=release@wraplib.go:15 client=go-redis/v9 via=Release\E$`
	l.Unlock(ctx, "lock:a")                                                                                                                // want `^\QDEL key="lock:a" client=go-redis/v9 via=Unlock\E$`
	l.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{"lock:b"}, token) // want `^\QEVAL key="lock:b" script=release(inline) client=go-redis/v9 via=Eval\E$`
	c.SetNX(ctx, "lock:c", token, 0)                                                                                                       // want `^\QSET key="lock:c" value=token NX ttl=none client=go-redis/v9 via=SetNX\E$`
	m.Get(ctx, "lock:c")                                                                                                                   // want `^\QGET key="lock:c" client=go-redis/v9 via=Get\E$`
	d.Fetch(ctx, "lock:c")
}
