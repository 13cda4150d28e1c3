package resolve

import (
	"go/types"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// clientMethod returns the command method of a known client that an
// interface method of another package mirrors, or nil. The project's own
// `type Client interface { SetNX(ctx, string, interface{}, time.Duration)
// *redis.BoolCmd; Get(...) *redis.StringCmd; Del(...) *redis.IntCmd }`,
// which *redis.Client satisfies, sends go-redis's commands: a method whose
// first result is a type of a client package and whose name and signature
// are those of a method of one of that package's interfaces is that method.
// A same-named method returning anything else stays the project's.
func (r *resolver) clientMethod(fn *types.Func) *types.Func {
	if !isInterfaceMethod(fn) || r.pkgInfoOf(fn.Pkg()) != nil {
		return nil
	}
	if m, ok := r.mirrored[fn]; ok {
		return m
	}
	var m *types.Func
	if res := fn.Signature().Results(); res.Len() > 0 {
		if pkg := namedPkg(res.At(0).Type()); pkg != nil {
			if info := r.pkgInfoOf(pkg); info != nil && !info.builder {
				m = interfaceMethod(pkg, fn)
			}
		}
	}
	if r.mirrored == nil {
		r.mirrored = map[*types.Func]*types.Func{}
	}
	r.mirrored[fn] = m
	return m
}

// namedPkg is the package of a named type, behind a pointer and aliases.
func namedPkg(t types.Type) *types.Package {
	if n := syntax.NamedOf(t); n != nil {
		return n.Obj().Pkg()
	}
	return nil
}

// interfaceMethod finds a method of an exported interface of pkg with fn's
// name and an identical signature.
func interfaceMethod(pkg *types.Package, fn *types.Func) *types.Func {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for i := range iface.NumMethods() {
			if m := iface.Method(i); m.Name() == fn.Name() && types.Identical(m.Type(), fn.Type()) {
				return m
			}
		}
	}
	return nil
}
