// Package embedded reads script texts from package-level variables,
// including //go:embed files.
package embedded

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

//go:embed release.lua
var releaseSrc string

var release = redis.NewScript(releaseSrc) // want `^\QSCRIPTDEF script=release client=go-redis/v9\E$`

var extendSrc = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`

var extend = redis.NewScript(extendSrc) // want `^\QSCRIPTDEF script=extend client=go-redis/v9\E$`

var mutated = `return 1`

func init() {
	mutated = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`
}

var changed = redis.NewScript(mutated) // want `^\QSCRIPTDEF client=go-redis/v9\E$`
