package origin

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// The randomness model: a value drawn from math/rand or math/rand/v2 is as
// strong as the generator's seed.
//
//   - math/rand/v2's top-level functions read the runtime's ChaCha8
//     generator, seeded from the operating system: strong.
//   - A generator or source (rand.New, NewSource, NewPCG, NewChaCha8) is
//     strong when its seed comes from crypto/rand, weak when the seed is
//     the time or a constant (the reason says which), untraced otherwise.
//     A package-level generator a setter may replace (SetGenerator(r) {
//     gen = r }) is judged by its declared default when that is weak.
//   - math/rand's (v1) top-level functions read the global source, which a
//     rand.Seed call anywhere in the program fixes (and which was seeded
//     with 1 before Go 1.20): weak; when this package seeds it, the reason
//     names the seed.

// mathRand reports math/rand or math/rand/v2.
func mathRand(path string) bool { return path == "math/rand" || path == "math/rand/v2" }

// randName names a generator kind for a reason: "math/rand/v2 ChaCha8",
// "math/rand" (a v1 source).
func randName(path, ctor string) string {
	switch ctor {
	case "NewPCG":
		return path + " PCG"
	case "NewChaCha8":
		return path + " ChaCha8"
	}
	return path
}

// randCall is the origin of a value a math/rand call draws: a method of a
// generator or source (recv), or a top-level function.
func (t *tracer) randCall(fn *types.Func, recv ast.Expr, depth int) Origin {
	if recv != nil {
		return t.generator(recv, depth+1)
	}
	switch fn.Name() {
	case "New", "NewSource", "NewPCG", "NewChaCha8", "NewZipf", "Seed":
		return untraced // a generator, not a value
	}
	if fn.Pkg().Path() == "math/rand/v2" {
		return strong
	}
	return t.globalSource(depth)
}

// globalSource is the origin of math/rand's (v1) global source: the seeds
// this package's rand.Seed calls give it, else weak.
func (t *tracer) globalSource(depth int) Origin {
	var seeds []Origin
	for _, f := range t.x.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			if fn, _ := typeutil.Callee(t.x.TypesInfo, call).(*types.Func); fn != nil && fn.Pkg() != nil &&
				fn.Pkg().Path() == "math/rand" && fn.Name() == "Seed" && fn.Signature().Recv() == nil {
				seeds = append(seeds, t.seed(call.Args, depth+1))
			}
			return true
		})
	}
	o := all(seeds)
	switch o.Strength {
	case Strong:
		return strong
	case Weak:
		return weak("math/rand's global source seeded with " + o.Reason())
	}
	return weak("math/rand's global source")
}

// generator traces a math/rand generator or source expression to what
// seeds it: a constructor call, a variable or field set to one, a
// parameter of a function of the package (through its callers' arguments).
func (t *tracer) generator(e ast.Expr, depth int) Origin {
	e = ast.Unparen(e)
	if depth > maxDepth || e == nil {
		return untraced
	}
	switch x := e.(type) {
	case *ast.UnaryExpr:
		return t.generator(x.X, depth+1)
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(t.x.TypesInfo, x).(*types.Func)
		if fn == nil || fn.Pkg() == nil || !mathRand(fn.Pkg().Path()) || fn.Signature().Recv() != nil {
			return untraced
		}
		switch fn.Name() {
		case "New":
			if len(x.Args) == 1 {
				return t.generator(x.Args[0], depth+1)
			}
		case "NewSource", "NewPCG", "NewChaCha8":
			o := t.seed(x.Args, depth+1)
			switch o.Strength {
			case Strong:
				return strong
			case Weak:
				return weak(randName(fn.Pkg().Path(), fn.Name()) + " seeded with " + o.Reason())
			}
		}
		return untraced
	case *ast.Ident, *ast.SelectorExpr:
		v, ok := t.x.ObjOf(x).(*types.Var)
		if !ok || v.Pkg() != t.x.Pkg || t.seen[v] {
			return untraced
		}
		t.seen[v] = true
		defer delete(t.seen, v)
		if t.x.IsParam(v) {
			return t.argsOf(v, depth, t.generator)
		}
		writes := t.x.Writes(v)
		if v.IsField() {
			writes = append(t.x.FieldInits(v), writes...)
		}
		var out []Origin
		replaceable := false
		for _, w := range writes {
			if w.Value() == nil {
				return untraced
			}
			if t.setterArg(v, w) {
				replaceable = true
				continue
			}
			out = append(out, t.generator(w.Value(), depth+1))
		}
		if o := all(out); o.Strength == Weak || !replaceable {
			return o
		}
		return untraced
	}
	return untraced
}

// setterArg reports a write that gives a package-level generator a
// setter's parameter (SetGenerator(rnd) { gen = rnd }): a replacement a
// caller may install, mostly a test's seeded one. The generator's own
// declaration is its default: a weak default stays weak (what runs unless
// someone replaces it), a strong one is untraced (a replacement may not
// be).
func (t *tracer) setterArg(v *types.Var, w syntax.Write) bool {
	if !syntax.IsPkgLevel(v) || t.x.InInit(w.Pos) {
		return false
	}
	p, ok := t.x.ObjOf(ast.Unparen(w.Value())).(*types.Var)
	return ok && t.x.IsParam(p)
}

// seed is the origin of a generator's seed: strong when any part comes
// from crypto/rand, weak when every part is the time, a constant or
// another weak value (constants are named only when nothing else is); a
// parameter is traced through its callers.
func (t *tracer) seed(args []ast.Expr, depth int) Origin {
	var parts []Origin
	consts := 0
	for _, a := range args {
		if constLit(t.x.TypesInfo, a) {
			consts++
			continue
		}
		o := t.origin(a, depth+1)
		if o.Strength == Untraced {
			if v, ok := t.x.ObjOf(ast.Unparen(a)).(*types.Var); ok && t.x.IsParam(v) && !t.seen[v] {
				t.seen[v] = true
				o = t.argsOf(v, depth, func(e ast.Expr, d int) Origin { return t.seed([]ast.Expr{e}, d) })
				delete(t.seen, v)
			}
		}
		switch o.Strength {
		case Strong:
			return strong
		case Untraced:
			return untraced
		}
		parts = append(parts, o)
	}
	if len(parts) == 0 {
		if consts == 0 {
			return untraced
		}
		return weak("a constant")
	}
	res := Origin{Strength: Weak}
	for _, p := range parts {
		res.Reasons = merge(res.Reasons, p.Reasons)
	}
	return res
}

// constLit reports a constant, or a composite literal of constants
// ([32]byte{1}).
func constLit(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return true
	}
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, el := range cl.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		if !constLit(info, el) {
			return false
		}
	}
	return true
}

// argsOf traces a parameter of a function of the package through the
// arguments its calls in the package pass (all of them alike, else
// untraced); an exported function's callers elsewhere are unknown. An
// unexported method counts (Passed: viaCallers) when no interface of the
// package has a method of its name, so that every call names it.
func (t *tracer) argsOf(v *types.Var, depth int, trace func(ast.Expr, int) Origin) Origin {
	fd, idx := t.paramOf(v)
	if fd == nil || fd.Name.IsExported() || fd.Recv != nil && (!t.viaCallers || t.ifaceMethod(fd.Name.Name)) {
		return untraced
	}
	fn, _ := t.x.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return untraced
	}
	var out []Origin
	for _, f := range t.x.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || idx >= len(call.Args) {
				return true
			}
			if callee, _ := typeutil.Callee(t.x.TypesInfo, call).(*types.Func); callee == fn {
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && t.x.TypesInfo.Types[sel.X].IsType() {
					out = append(out, untraced) // a method expression: the receiver is the first argument
					return true
				}
				out = append(out, trace(call.Args[idx], depth+1))
			}
			return true
		})
	}
	return all(out)
}

// paramOf returns the function declaration a parameter belongs to and its
// index, or nil.
func (t *tracer) paramOf(v *types.Var) (*ast.FuncDecl, int) {
	fd := t.funcAt(v.Pos())
	if fd == nil || fd.Type.Params == nil {
		return nil, -1
	}
	i := 0
	for _, f := range fd.Type.Params.List {
		if len(f.Names) == 0 {
			i++
			continue
		}
		for _, n := range f.Names {
			if t.x.TypesInfo.Defs[n] == v {
				return fd, i
			}
			i++
		}
	}
	return nil, -1
}

// ifaceMethod reports an interface type of the package with a method of
// the name: calls through it do not name the method that runs.
func (t *tracer) ifaceMethod(name string) bool {
	scope := t.x.Pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		if it, ok := tn.Type().Underlying().(*types.Interface); ok {
			if obj, _, _ := types.LookupFieldOrMethod(it, false, t.x.Pkg, name); obj != nil {
				return true
			}
		}
	}
	return false
}
