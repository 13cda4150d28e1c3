package clients

import (
	"context"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/constants"
	"github.com/valkey-io/valkey-glide/go/v2/interfaces"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

// valkey-glide's Go client is cgo over its Rust core: type-checking it
// runs cgo on its lib.h (a C compiler), never links the core.

var glideRelease = options.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^\QSCRIPTDEF script=release client=glide\E$`

func GlideForms(ctx context.Context, c *glide.Client, cc *glide.ClusterClient, i interfaces.GlideClientCommands, token string, ttl time.Duration) {
	c.Set(ctx, "lock:a", token)                                                                                                         // want `^\QSET key="lock:a" value=token ttl=none client=glide\E$`
	c.SetWithOptions(ctx, "lock:a", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(ttl)))        // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=ttl client=glide\E$`
	c.SetWithOptions(ctx, "lock:a", token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryKeepExisting()))  // want `^\QSET key="lock:a" value=token match=token cond=IFEQ IFEQ ttl=keepttl client=glide\E$`
	c.SetWithOptions(ctx, "lock:a", token, options.SetOptions{ConditionalSet: constants.OnlyIfDoesNotExist})                            // want `^\QSET key="lock:a" value=token NX ttl=none client=glide\E$`
	i.SetWithOptions(ctx, "lock:a", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryAt(time.Now()))) // want `^\QSET key="lock:a" value=token NX ttl=expire ttlexpr=time.Now() client=glide\E$`
	c.Del(ctx, []string{"lock:a"})                                                                                                      // want `^\QDEL key="lock:a" client=glide\E$`
	c.PExpire(ctx, "lock:a", ttl)                                                                                                       // want `^\QPEXPIRE key="lock:a" ttlexpr=ttl client=glide\E$`
	c.Wait(ctx, 1, time.Second)                                                                                                         // want `^\QWAIT client=glide\E$`
	c.CustomCommand(ctx, []string{"DELIFEQ", "lock:a", token})                                                                          // want `^\QDELIFEQ key="lock:a" match=token client=glide\E$`
	cc.CustomCommand(ctx, []string{"DELEX", "lock:a", "IFEQ", token})                                                                   // want `^\QDELEX key="lock:a" match=token cond=IFEQ client=glide\E$`
	c.InvokeScriptWithOptions(ctx, *glideRelease, options.ScriptOptions{Keys: []string{"lock:a"}, Args: []string{token}})               // want `^\QEVALSHA key="lock:a" script=release@-13 client=glide\E$`
	tx := pipeline.NewStandaloneBatch(true)
	tx.SetWithOptions("lock:{a}", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(ttl))) // want `^\QSET key="lock:{a}" value=token NX ttl=expire ttlexpr=ttl tx=multi@+2 client=glide\E$`
	tx.Incr("fence:{a}")                                                                                                       // want `^\QINCR key="fence:{a}" tx=multi@+1 client=glide\E$`
	c.Exec(ctx, *tx, true)
}
