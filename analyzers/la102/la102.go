package la102

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
)

// Analyzer reports calls into lock libraries whose steps run Lua.
var Analyzer = ruleutil.New("LA102", run)

// libs says, per library, which steps of a call run Lua and how the whole
// library uses it.
var libs = map[string]struct {
	luaSteps map[string]bool
	summary  string
}{
	"redsync": {
		luaSteps: map[string]bool{"extend": true, "release": true},
		summary:  "redsync extends and releases with Lua scripts (its acquire is a native SET NX PX)",
	},
	"redislock": {
		luaSteps: map[string]bool{"acquire": true, "extend": true, "release": true, "ttl": true},
		summary:  "bsm/redislock runs every step (obtain, refresh, release, TTL) as a Lua script",
	},
	"valkeylock": {
		luaSteps: map[string]bool{"locker": true, "acquire": true},
		summary:  "valkeylock runs every step (acquire, extend, release on cancel) as a Lua script",
	},
	"rueidislock": {
		luaSteps: map[string]bool{"locker": true, "acquire": true},
		summary:  "rueidislock runs every step (acquire, extend, release on cancel) as a Lua script",
	},
}

func run(pass *analysis.Pass) (any, error) {
	for _, op := range ruleutil.Ops(pass).Ops {
		if op.Kind != resolve.Library {
			continue
		}
		lib, ok := libs[op.Lib]
		if !ok || !lib.luaSteps[op.Step] {
			continue
		}
		ruleutil.Report(pass, "LA102", op.Pos,
			"%s (%s): %s; Lua steps fail where Lua is absent (Valkey 9.1+ without the Lua module, BUILD_LUA=no builds, providers that ban EVAL) and EVALSHA answers NOSCRIPT after a failover until the script is loaded again",
			qualified(resolve.CallName(pass.TypesInfo, op)), op.Step, lib.summary)
	}
	return nil, nil
}

// qualified joins a package function's package and name (redislock.Obtain);
// methods come without a package (Mutex.Unlock).
func qualified(pkg, name string) string {
	if pkg == "" {
		return name
	}
	return pkg + "." + name
}
