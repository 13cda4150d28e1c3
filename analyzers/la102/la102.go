package la102

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports calls into lock libraries whose steps run Lua.
var Analyzer = ruleutil.New(rules.LA102, run, settings.Analyzer, keys.Analyzer)

func init() {
	settings.DeclareTarget(&Analyzer.Flags, "a library's extend is reported only where every target has SET IFEQ, its other steps only where every target has one native release (DELIFEQ or DELEX)")
}

func run(pass *analysis.Pass) (any, error) {
	target := settings.Of(pass)
	in := keys.Of(pass)
	for _, op := range ruleutil.Ops(pass).Ops {
		if op.Kind != resolve.Library || op.Via != nil {
			continue // a wrapper's library call is reported in the wrapper
		}
		if in.LibraryClaim(op) {
			continue // a write-once claim left to expire, not a lock
		}
		lib := op.Client.Lib
		if lib == nil || lib.Lua[op.Step] == "" || !Replaceable(op.Step, target) {
			continue
		}
		name := ruleutil.Clip(qualified(resolve.CallName(pass.TypesInfo, op)))
		switch op.Step {
		case "extend":
			ruleutil.Report(pass, rules.LA102, op.Pos, "%s (extend) runs Lua: use %s instead", name, fix.ExtendAdvice(target))
		case "release":
			ruleutil.Report(pass, rules.LA102, op.Pos, "%s (release) runs Lua: use %s instead", name, fix.ReleaseAdvice(target))
		default:
			ruleutil.Report(pass, rules.LA102, op.Pos, "%s (%s) runs Lua: lock with %s and %s instead of the library",
				name, op.Step, fix.AcquireAdvice, fix.ReleaseAdvice(target))
		}
	}
	return nil, nil
}

// Replaceable reports whether a library step has a native replacement on
// every target: an extend where every target has SET IFEQ; any other step
// (acquire, release, the locker, a TTL read) where every target has one
// native release. Where there is none, the library's Lua is the correct
// lock for the fleet: its acquire cannot be replaced alone, because the
// release it pairs with must stay Lua.
func Replaceable(step string, t fix.Target) bool {
	if step == "extend" {
		return fix.NativeExtend(t)
	}
	return fix.NativeRelease(t)
}

// qualified joins a package function's package and name (redislock.Obtain);
// methods come without a package (Mutex.Unlock).
func qualified(pkg, name string) string {
	if pkg == "" {
		return name
	}
	return pkg + "." + name
}
