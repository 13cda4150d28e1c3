// Package glide exercises the resolve layer on valkey-glide Go v2.
package glide

import (
	"context"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/constants"
	"github.com/valkey-io/valkey-glide/go/v2/interfaces"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

const key = "lock:job"

func commands(ctx context.Context, c *glide.Client, cc *glide.ClusterClient, i interfaces.GlideClientCommands, token string, ttl time.Duration, get bool) {
	c.Set(ctx, key, token)                                                                                                                                                                        // want `^\QSET key=key value=token ttl=none client=glide\E$`
	c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(ttl)))                                                                       // want `^\QSET key=key value=token NX ttl=expire ttlexpr=ttl client=glide\E$`
	c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfDoesNotExist())                                                                                                           // want `^\QSET key=key value=token NX ttl=none client=glide\E$`
	c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token))                                                                                                            // want `^\QSET key=key value=token match=token cond=IFEQ IFEQ ttl=none client=glide\E$`
	c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryKeepExisting()))                                                                 // want `^\QSET key=key value=token match=token cond=IFEQ IFEQ ttl=keepttl client=glide\E$`
	c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryIn(ttl)))                                                // want `^\QSET key=key value=token match=token cond=IFEQ IFEQ ttl=expire ttlexpr=ttl client=glide\E$`
	c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetConditionalSet(constants.OnlyIfDoesNotExist).SetReturnOldValue(get))                                                            // want `^\QSET key=key value=token NX ttl=unknown incomplete client=glide\E$`
	c.SetWithOptions(ctx, key, token, options.SetOptions{ConditionalSet: constants.OnlyIfEquals, ComparisonValue: token, Expiry: &options.Expiry{Type: constants.Milliseconds, Duration: 30000}}) // want `^\QSET key=key value=token match=token cond=IFEQ IFEQ ttl=expire ttlexpr=30000 client=glide\E$`
	c.SetWithOptions(ctx, key, token, options.SetOptions{ConditionalSet: constants.OnlyIfDoesNotExist})                                                                                           // want `^\QSET key=key value=token NX ttl=none client=glide\E$`
	i.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryAt(time.Now().Add(ttl))))                                                       // want `^\QSET key=key value=token NX ttl=expire ttlexpr=time.Now().Add(ttl) client=glide\E$`
	cc.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry((&options.Expiry{Duration: 5}).SetType(constants.KeepExisting)))                                 // want `^\QSET key=key value=token match=token cond=IFEQ IFEQ ttl=keepttl client=glide\E$`
	c.Del(ctx, []string{key})                                                                                                                                                                     // want `^\QDEL key=key client=glide\E$`
	c.Unlink(ctx, []string{key, "b"})                                                                                                                                                             // want `^\QUNLINK key=key,"b" client=glide\E$`
	c.GetDel(ctx, key)                                                                                                                                                                            // want `^\QGETDEL key=key client=glide\E$`
	c.PExpire(ctx, key, ttl)                                                                                                                                                                      // want `^\QPEXPIRE key=key ttlexpr=ttl client=glide\E$`
	c.Incr(ctx, "fence:job")                                                                                                                                                                      // want `^\QINCR key="fence:job" client=glide\E$`
	c.Wait(ctx, 1, time.Second)                                                                                                                                                                   // want `^\QWAIT client=glide\E$`
	c.CustomCommand(ctx, []string{"DELIFEQ", key, token})                                                                                                                                         // want `^\QDELIFEQ key=key match=token client=glide\E$`
	c.CustomCommand(ctx, []string{"WAITAOF", "1", "1", "100"})                                                                                                                                    // want `^\QWAITAOF client=glide\E$`
	cc.CustomCommand(ctx, []string{"SET", key, token, "NX", "IFEQ", token})                                                                                                                       // want `^\QSET key=key value=token match=token cond=IFEQ NX IFEQ ttl=none client=glide\E$`
	i.CustomCommand(ctx, []string{"DELEX", key, "IFEQ", token})                                                                                                                                   // want `^\QDELEX key=key match=token cond=IFEQ client=glide\E$`
	i.Del(ctx, []string{key})                                                                                                                                                                     // want `^\QDEL key=key client=glide\E$`
}

func optsVar(ctx context.Context, c *glide.Client, token string, ttl time.Duration, opts2 *options.SetOptions) {
	opts := options.NewSetOptions().SetOnlyIfEquals(token)
	opts.SetExpiry(options.NewExpiryIn(ttl))
	c.SetWithOptions(ctx, key, token, *opts) // want `^\QSET key=key value=token match=token cond=IFEQ IFEQ ttl=expire ttlexpr=ttl client=glide\E$`

	noTTL := options.NewSetOptions()
	noTTL.SetOnlyIfDoesNotExist()
	c.SetWithOptions(ctx, key, token, *noTTL) // want `^\QSET key=key value=token NX ttl=none client=glide\E$`
	noTTL.SetExpiry(options.NewExpiryIn(ttl))

	c.SetWithOptions(ctx, key, token, *opts2) // want `^\QSET key=key value=token ttl=unknown incomplete client=glide\E$`
}

var release = options.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^\QSCRIPTDEF script=release client=glide\E$`

func scripts(ctx context.Context, c *glide.Client, token string) {
	c.InvokeScriptWithOptions(ctx, *release, options.ScriptOptions{Keys: []string{key}, Args: []string{token}})             // want `^\QEVALSHA key=key script=release@-3 client=glide\E$`
	c.InvokeScriptWithOptions(ctx, *release, *options.NewScriptOptions().WithKeys([]string{key}).WithArgs([]string{token})) // want `^\QEVALSHA key=key script=release@-4 client=glide\E$`
	c.InvokeScript(ctx, *release)                                                                                           // want `^\QEVALSHA script=release@-5 client=glide\E$`
}

func batches(ctx context.Context, c *glide.Client, cc *glide.ClusterClient, token string, atomic bool) {
	tx := pipeline.NewStandaloneBatch(true)
	tx.SetWithOptions("lock:{job}", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second))) // want `^\QSET key="lock:{job}" value=token NX ttl=expire ttlexpr=30 * time.Second tx=multi@+2 client=glide\E$`
	tx.Incr("fence:{job}")                                                                                                                    // want `^\QINCR key="fence:{job}" tx=multi@+1 client=glide\E$`
	c.Exec(ctx, *tx, true)

	p := pipeline.NewClusterBatch(false)
	p.Set("a", "1").Incr("b") // want `^\QINCR key="b" tx=pipeline@+1 client=glide\E$` `^\QSET key="a" value="1" ttl=none tx=pipeline@+1 client=glide\E$`
	cc.Exec(ctx, *p, false)

	m := pipeline.NewStandaloneBatch(atomic)
	m.Del([]string{"x"}) // want `^\QDEL key="x" tx=pipeline@+1? client=glide\E$`
	c.ExecWithOptions(ctx, *m, true, pipeline.StandaloneBatchOptions{})
}

// Not commands.
func negatives() {
	o := options.NewSetOptions().SetOnlyIfDoesNotExist()
	_ = o
	_ = options.NewExpiryIn(time.Second)
}
