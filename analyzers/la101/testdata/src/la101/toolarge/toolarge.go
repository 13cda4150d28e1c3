// Package toolarge: a Lua script beyond the classifier's limits is reported
// as not classified, at its definition, never taken for one without lock
// steps.
package toolarge

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

//go:embed cad.lua
var cadSrc string

var cad = redis.NewScript(cadSrc) // want `^Lua script \(cad\.lua\) not classified: too large \(blocks or expressions nested deeper than 200 levels\); check its lock steps by hand$`

// A short script of the same shape is classified (and, without lock
// evidence here, data).
var small = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)
