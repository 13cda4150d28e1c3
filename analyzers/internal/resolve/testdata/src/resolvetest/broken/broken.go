// Package broken does not compile: the resolve layer runs despite errors
// (RunDespiteErrors) and must not panic on the odd shapes such code has.
package broken

import (
	"context"

	gr "github.com/gomodule/redigo/redis"
	"github.com/mediocregopher/radix/v4"
	"github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-go"
)

func wrongArity(ctx context.Context, rdb *redis.Client, c valkey.Client, g *glide.Client, conn gr.Conn, rc radix.Client) {
	rdb.SetNX(ctx)
	rdb.SetArgs(ctx, "k")
	rdb.Eval(ctx)
	rdb.Do(ctx)
	rdb.Process(ctx)
	redis.NewScript().Run(ctx)
	c.Do(ctx)
	c.DoMulti(ctx)
	c.Do(ctx, c.B().Arbitrary().Build())
	c.Do(ctx, c.B().Set().Key().Value("v").Nx().Build())
	g.SetWithOptions(ctx, "k")
	g.SetWithOptions(ctx, "k", "v", *options.NewSetOptions().SetOnlyIfEquals().SetExpiry().SetReturnOldValue().SetConditionalSet())
	g.CustomCommand(ctx)
	g.InvokeScriptWithOptions(ctx)
	conn.Do()
	gr.DoContext(conn)
	gr.NewScript().Do()
	rc.Do(ctx, radix.Cmd())
	rc.Do(ctx, radix.FlatCmd(nil))
	rc.Do(ctx)
	undefined.Do("SET", "k", "v")
}

func selfAssign(ctx context.Context, c valkey.Client) {
	cmd := c.B().Set().Key("k").Value("v").Build()
	cmd = cmd
	a, b := cmd, cmd
	a, b = b, a
	c.Do(ctx, cmd)
	c.Do(ctx, a)
	c.DoMulti(ctx, a, b)
}

func parens(ctx context.Context, rdb *redis.Client, c valkey.Client) {
	(rdb.SetNX)(ctx, "lock:a", "t", 0)
	(c.Do)(ctx, (c.B().Set().Key("k").Value("v").Nx()).Build())
}

// A v7-style call without the context: the spread is taken for it.
func missingContext(rdb *redis.Client, keys []string) {
	rdb.Del(keys...)
}
