package origin

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// Analyzer traces tokens across packages. For every function of a package
// that may make tokens — one that imports a random source or a package
// with such functions — whose first result a token can be (a string, a
// byte slice or array, or a named type of one), it exports a Source fact
// when the result is weak or strong, so that a token drawn by a helper of
// another package is judged by what is underneath. Its result, a *Tracer,
// answers for the package's acquires (For).
var Analyzer = &analysis.Analyzer{
	Name:             "locktokens",
	Doc:              "where lock tokens come from, across packages (infrastructure for the LA1xx rules; reports nothing)",
	Requires:         []*analysis.Analyzer{syntax.Analyzer},
	Run:              run,
	ResultType:       reflect.TypeOf((*Tracer)(nil)),
	RunDespiteErrors: true,
	FactTypes:        []analysis.Fact{(*Source)(nil), (*Sources)(nil)},
}

// Source is the fact of a function whose first result is a weak or strong
// token source.
type Source struct {
	Strength Strength
	Reasons  []string
}

// AFact makes Source a go/analysis fact.
func (*Source) AFact() {}

func (s *Source) String() string {
	switch s.Strength {
	case Strong:
		return "strong"
	case Weak:
		return "weak: " + Origin{Strength: Weak, Reasons: s.Reasons}.Reason()
	}
	return "untraced"
}

// Sources is the package fact of a package that exports Source facts.
type Sources struct{}

// AFact makes Sources a go/analysis fact.
func (*Sources) AFact() {}

func (*Sources) String() string { return "token sources" }

// IsRandomSource reports whether an import path is a source of random
// values a token may be drawn from (math/rand, math/rand/v2,
// crypto/rand): the packages importing one may make tokens.
func IsRandomSource(path string) bool {
	switch path {
	case "math/rand", "math/rand/v2", "crypto/rand":
		return true
	}
	return false
}

// Tracer traces the tokens of one package, with the Source facts of the
// packages it imports.
type Tracer struct {
	x      *syntax.Index
	source func(*types.Func) *Source
}

// For returns the pass's Tracer; the analyzer must require Analyzer.
func For(pass *analysis.Pass) *Tracer { return pass.ResultOf[Analyzer].(*Tracer) }

// Token traces the value an acquire in function fn writes (Of, with the
// Source facts of other packages, and fields: a field fn's type only sets
// in its constructors is a token drawn once per object).
func (tr *Tracer) Token(e ast.Expr, fn *ast.FuncDecl) Origin {
	t := &tracer{x: tr.x, seen: map[types.Object]bool{}, source: tr.source, acq: fn}
	return t.origin(e, 0)
}

// Passed traces a value the function fn passes where a token is taken
// (a lock constructor's token parameter): as Token, and a parameter of an
// unexported function or method of the package through what its calls
// here pass for it (weak when every call passes a weak value).
func (tr *Tracer) Passed(e ast.Expr, fn *ast.FuncDecl) Origin {
	t := &tracer{x: tr.x, seen: map[types.Object]bool{}, source: tr.source, acq: fn, viaCallers: true}
	return t.origin(e, 0)
}

func run(pass *analysis.Pass) (any, error) {
	tr := &Tracer{x: syntax.Of(pass)}
	if pass.ImportObjectFact != nil {
		cache := map[*types.Func]*Source{}
		tr.source = func(fn *types.Func) *Source {
			if s, ok := cache[fn]; ok {
				return s
			}
			s := new(Source)
			if !pass.ImportObjectFact(fn, s) {
				s = nil
			}
			cache[fn] = s
			return s
		}
	}
	if pass.ExportObjectFact == nil || !makesTokens(pass) {
		return tr, nil
	}
	exported := false
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !fd.Name.IsExported() {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok || !tokenResult(fn.Signature()) {
				continue
			}
			t := &tracer{x: tr.x, seen: map[types.Object]bool{}, source: tr.source}
			// Only a function that draws randomness or reads the
			// process's identity (or calls one that does) is traced:
			// the rest make no tokens of their own.
			if weakRand, strongRand := t.randomness(fd, 0, map[*ast.FuncDecl]bool{}); len(weakRand) == 0 && !strongRand && !t.identity(fd, 0, map[*ast.FuncDecl]bool{}) {
				continue
			}
			if o := t.helper(fd, 0, 0); o.Strength != Untraced {
				pass.ExportObjectFact(fn, &Source{Strength: o.Strength, Reasons: o.Reasons})
				exported = true
			}
		}
	}
	if exported {
		pass.ExportPackageFact(&Sources{})
	}
	return tr, nil
}

// makesTokens reports whether a package imports a random source or a
// package with Source facts, or reads the process's identity (a pid or
// goroutine id helper). Client packages do not count: their API is the
// resolve layer's knowledge.
func makesTokens(pass *analysis.Pass) bool {
	if strings.HasPrefix(pass.Pkg.Path(), "math/") || pass.Pkg.Path() == "crypto/rand" || resolve.IsClientPackage(pass.Pkg.Path()) {
		return false
	}
	for _, imp := range pass.Pkg.Imports() {
		if IsRandomSource(imp.Path()) || pass.ImportPackageFact(imp, new(Sources)) {
			return true
		}
	}
	return readsIdentity(pass)
}

// tokenResult reports whether a signature's first result can be a token
// or what one is built from: a string, bytes, or an integer (a random
// helper's IntN, from which the caller picks a token's characters).
func tokenResult(sig *types.Signature) bool {
	if sig.Results().Len() == 0 {
		return false
	}
	switch t := sig.Results().At(0).Type().Underlying().(type) {
	case *types.Basic:
		return t.Info()&(types.IsString|types.IsInteger) != 0
	case *types.Slice:
		b, ok := t.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	case *types.Array:
		b, ok := t.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}
