// Package valkeygo: LA108 on valkey-go.
package valkeygo

import (
	"context"
	"errors"

	"github.com/valkey-io/valkey-go"
)

// A name that says lock is lock evidence (LA101 asks the same), as where
// bsm/redislock keeps its luaRelease in package redislock.
var unlockScript = valkey.NewLuaScript(`if redis.call("GET",KEYS[1]) == ARGV[1] then return redis.call("DEL",KEYS[1]) end;return 0`)

// The same script with no lock evidence: data deleted only if unchanged
// (dapr's state store deletes an entry only if its ETag matches).
var dropIfSame = valkey.NewLuaScript(`if redis.call("GET",KEYS[1]) == ARGV[1] then return redis.call("DEL",KEYS[1]) end;return 0`)

func positives(ctx context.Context, c valkey.Client, key, token string) error {
	c.Do(ctx, c.B().Delifeq().Key(key).Value(token).Build())                               // want `^reply of DELIFEQ key is discarded`
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).PxMilliseconds(30000).Build()) // want `^reply of SET key IFEQ is discarded`
	unlockScript.Exec(ctx, c, []string{key}, []string{token})                              // want `^reply of the Lua release script \(EVALSHA key\) is discarded`
	return c.Do(ctx, c.B().Delex().Key(key).Ifeq(token).Build()).Error()                   // want `^only the error of DELEX key IFEQ is checked`
}

func negatives(ctx context.Context, c valkey.Client, key, token string) error {
	dropIfSame.Exec(ctx, c, []string{key}, []string{token}) // no lock evidence: data
	n, err := c.Do(ctx, c.B().Delifeq().Key(key).Value(token).Build()).AsInt64()
	if err == nil && n == 0 {
		return errors.New("lost")
	}
	// valkey-go returns valkey.Nil for a nil reply: the error check examines it.
	return c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).PxMilliseconds(30000).Build()).Error()
}
