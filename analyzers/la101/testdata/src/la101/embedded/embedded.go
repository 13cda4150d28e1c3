package embedded

// Lua text in //go:embed files: a string, a []byte, and reads of an
// embed.FS with a constant name. LA101 reports at the script's definition
// and names the file and line of the lock step.

import (
	"embed"
	"io/fs"

	"github.com/redis/go-redis/v9"
)

var (
	//go:embed lockscript.lua
	lockLuaScript string
	lockScript    = redis.NewScript(lockLuaScript) // want `^Lua lock script in lockscript\.lua:3 \(acquire, extend\): use SET key token NX PX ttl, SET key token IFEQ token PX ttl instead`

	//go:embed delscript.lua
	delLuaScript []byte
	delScript    = redis.NewScript(string(delLuaScript)) // want `^Lua lock script in delscript\.lua:2 \(release\): use DELIFEQ key token instead`
)

//go:embed scripts/*.lua
var scripts embed.FS

func releaseScript() *redis.Script {
	src, err := scripts.ReadFile("scripts/release.lua")
	if err != nil {
		panic(err)
	}
	return redis.NewScript(string(src)) // want `^Lua lock script in scripts/release\.lua:4 \(release\): use DELIFEQ key token instead`
}

func releaseScriptFS() *redis.Script {
	src, _ := fs.ReadFile(scripts, "scripts/release.lua")
	return redis.NewScript(string(src)) // want `^Lua lock script in scripts/release\.lua:4 \(release\): use DELIFEQ key token instead`
}

// Negatives: a rate limiter in an embedded file, a file the pattern does
// not embed, a name that is not a constant.

func limitScript() *redis.Script {
	src, _ := scripts.ReadFile("scripts/limit.lua")
	return redis.NewScript(string(src))
}

func notEmbedded() *redis.Script {
	src, _ := scripts.ReadFile("delscript.lua")
	return redis.NewScript(string(src))
}

func byName(name string) *redis.Script {
	src, _ := scripts.ReadFile(name)
	return redis.NewScript(string(src))
}
