package la102

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
)

// Analyzer reports calls into lock libraries whose steps run Lua.
var Analyzer = ruleutil.New("LA102", run)

func run(pass *analysis.Pass) (any, error) {
	for _, op := range ruleutil.Ops(pass).Ops {
		if op.Kind != resolve.Library {
			continue
		}
		lib := op.Client.Lib
		if lib == nil || lib.Lua[op.Step] == "" {
			continue
		}
		ruleutil.Report(pass, "LA102", op.Pos,
			"%s (%s): %s; Lua steps fail where Lua is absent (Valkey 9.1+ without the Lua module, BUILD_LUA=no builds, providers that ban EVAL) and EVALSHA answers NOSCRIPT after a failover until the script is loaded again",
			qualified(resolve.CallName(pass.TypesInfo, op)), op.Step, lib.Summary)
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
