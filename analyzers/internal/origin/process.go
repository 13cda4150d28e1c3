package origin

import (
	"go/ast"
	"go/build"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Process identity: the host name, the process id and the goroutine id
// name who runs, not which acquisition this is. Two hosts share pids, a
// restarted process reuses them, and a goroutine id is reused once its
// goroutine ends: weak tokens, also when a helper of another package of
// the module reads them (its Source fact says so).

// goroutineID is the reason of a goroutine id: cut out of the stack
// header that runtime.Stack writes ("goroutine 18 [running]:"), or read
// by petermattis/goid.
const goroutineID = "a goroutine id (runtime.Stack)"

// processID is the reason of a call reading the process's identity
// (os.Hostname, os.Getpid, syscall.Gettid ...), ok false for any other.
func processID(fn *types.Func) (string, bool) {
	if fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return "", false
	}
	switch path, name := fn.Pkg().Path(), fn.Name(); path {
	case "os":
		switch name {
		case "Hostname", "Getpid", "Getppid":
			return "os." + name, true
		}
	case "syscall":
		switch name {
		case "Getpid", "Getppid", "Gettid", "Getuid":
			return "syscall." + name, true
		}
	}
	return "", false
}

// isStack reports runtime.Stack.
func isStack(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "runtime" && fn.Name() == "Stack"
}

// readsIdentity reports a package that calls runtime.Stack or reads the
// process's identity: its exported helpers may make owner ids.
func readsIdentity(pass *analysis.Pass) bool {
	imports := false
	for _, imp := range pass.Pkg.Imports() {
		switch imp.Path() {
		case "os", "syscall", "runtime":
			imports = true
		}
	}
	if !imports || pass.TypesInfo == nil || InGOROOT(pass) {
		return false // the standard library makes no owner ids
	}
	for _, obj := range pass.TypesInfo.Uses {
		if fn, ok := obj.(*types.Func); ok && fn != nil {
			if _, ok := processID(fn); ok || isStack(fn) {
				return true
			}
		}
	}
	return false
}

// identity reports whether a function (or a helper of the package it
// calls) reads the process's identity or the stack: one that may return
// an owner id.
func (t *tracer) identity(decl *ast.FuncDecl, depth int, seen map[*ast.FuncDecl]bool) bool {
	return t.calls(decl, depth, seen, func(fn *types.Func) bool {
		_, ok := processID(fn)
		return ok || isStack(fn)
	})
}

// readsStack reports whether a function (or a helper of the package it
// calls) calls runtime.Stack.
func (t *tracer) readsStack(decl *ast.FuncDecl, depth int, seen map[*ast.FuncDecl]bool) bool {
	return t.calls(decl, depth, seen, isStack)
}

// calls reports whether a function, or a helper of the package it calls
// (three levels down), calls a function that match accepts.
func (t *tracer) calls(decl *ast.FuncDecl, depth int, seen map[*ast.FuncDecl]bool, match func(*types.Func) bool) bool {
	if decl == nil || decl.Body == nil || depth > 3 || seen[decl] {
		return false
	}
	seen[decl] = true
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fn, _ := typeutil.Callee(t.x.TypesInfo, call).(*types.Func)
		switch {
		case fn == nil:
		case match(fn):
			found = true
		case fn.Pkg() == t.x.Pkg:
			found = t.calls(t.x.Decl(fn.Origin()), depth+1, seen, match)
		}
		return !found
	})
	return found
}

// InGOROOT reports a package of the standard library (its files are
// under GOROOT): vet reads every one a program imports, and none makes
// a lock's owner id.
func InGOROOT(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 || build.Default.GOROOT == "" {
		return false
	}
	f := pass.Fset.File(pass.Files[0].Pos())
	return f != nil && strings.HasPrefix(f.Name(), filepath.Join(build.Default.GOROOT, "src")+string(filepath.Separator))
}
