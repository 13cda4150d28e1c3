// Package keys knows the keys of a package's lock code: when two key
// expressions are "the same key" (ShapeOf, Shape.Same, SameKey), their
// cluster hash tags (TagOf, SameTag), which steps are lock code (the
// catalog's lock evidence, evidence.go: AcquireEvidence, IsLockAcquire,
// ScriptEvidence), which keys are lock keys (IsLockKey: taken by a lock
// acquire in the package, or matching a lock-key pattern) or fence keys
// (MatchesFenceKey), and which EXPIRE completes a SETNX (AcquireExpire).
// Its Analyzer computes nothing up front: each fact is built on first use
// and cached.
//
// Everything here errs on the side of silence: a key that cannot be
// followed (a parameter, a field, an unknown call) has an Unknown shape,
// and rules do not report unknowns.
package keys

import (
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// Analyzer gives every rule of a package one shared *Info.
var Analyzer = &analysis.Analyzer{
	Name:             "lockkeys",
	Doc:              "key shapes, hash tags and lock-key facts for the LA1xx rules (infrastructure; reports nothing)",
	Requires:         []*analysis.Analyzer{resolve.Analyzer, syntax.Analyzer, settings.Analyzer},
	Run:              run,
	ResultType:       reflect.TypeOf((*Info)(nil)),
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[resolve.Analyzer].(*resolve.Result)
	return New(syntax.Of(pass), res.Ops, settings.Of(pass)), nil
}

// Of returns the pass's Info; the rule must require Analyzer.
func Of(pass *analysis.Pass) *Info { return pass.ResultOf[Analyzer].(*Info) }

// Info holds one package's key facts, on top of its syntax index (whose
// methods it has). Its methods are safe for concurrent use.
type Info struct {
	*syntax.Index
	Ops      []*resolve.Op
	Settings *settings.Settings // the run's options (lock-key and fence-key patterns)

	lockOnce sync.Once
	acquired map[string][]*resolve.Op // shape key -> its SET NX/SETNX, native or in Lua, in source order
	owner    map[string]*resolve.Op   // shape key -> its first owner-checked step
	library  map[string]*resolve.Op   // shape key -> its first lock-library step
	gets     map[string][]*getCheck   // shape key -> its GETs whose reply is compared
	checks   []*getCheck              // every GET whose reply is compared
	guarded  map[*resolve.Op]Evidence // Lua guarded sets that take a lock (GuardedEvidence)

	pkgOnce sync.Once
	pkgLock *resolve.Op // the package's first lock acquire (packageLock)

	completeOnce sync.Once
	completing   map[*resolve.Op]bool // the EXPIREs that complete a TTL-less acquire (AcquireExpire)
}

// New builds an Info; Analyzer calls it, tests may too.
func New(x *syntax.Index, ops []*resolve.Op, s *settings.Settings) *Info {
	return &Info{Index: x, Ops: ops, Settings: s}
}
