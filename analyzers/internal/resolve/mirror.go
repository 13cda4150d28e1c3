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

// portPath is the knowledge key of portClient: no import path can be it.
const portPath = "lockaudit:client-interface"

// portClient is the client behind a project's own client interface that
// nothing in view implements (a lock library that takes "any client with
// Eval", its adapters in other modules): go-redis's helper names without
// its options, so fixes are not offered; what the adapter returns for a
// lost lock is not known, so a reply must be read to be examined.
func portClient() *Client { return &Client{Name: "client interface", API: APIAdapter} }

// portSpecs are the commands a client interface's method is read as, by
// its name: go-redis's EVAL family and SetNX, whose parameter lists say
// what they send (portShape).
func portSpecs() map[string]spec {
	m := map[string]spec{}
	for name, s := range goRedisSpecs() {
		if s.h == hEval && s.cmd != "FCALL" && s.cmd != "FCALL_RO" || name == "SetNX" {
			m[name] = s
		}
	}
	return m
}

// port returns the command a method of a project's client interface sends
// when it mirrors a client helper by name and parameters but not by result
// type (clientMethod reads those): `type RedisClient interface { Eval(ctx,
// script string, keys []string, args ...any) (any, error); SetNX(ctx, key
// string, value any, ttl int64) (bool, error) }`. Only an interface that
// no type of its package implements, and that no implementation in the
// module answers for (forwarder, moduleForwarder), is read so: its
// implementations are adapters the library's users write.
func (r *resolver) port(fn *types.Func) (*pkgInfo, spec, bool) {
	if !isInterfaceMethod(fn) || r.pkgInfoOf(fn.Pkg()) != nil {
		return nil, spec{}, false
	}
	info := known(portPath)
	s, ok := info.specs[fn.Name()]
	if !ok || !portShape(s, fn.Signature()) || !r.unimplemented(fn) {
		return nil, spec{}, false
	}
	return info, s, true
}

// unimplemented reports, once per method (port runs for every call), an
// interface method that no type of its package implements and, when the
// package is another, no implementation of this package or the module
// answers for.
func (r *resolver) unimplemented(fn *types.Func) bool {
	if v, ok := r.ports[fn]; ok {
		return v
	}
	iface, ok := fn.Signature().Recv().Type().Underlying().(*types.Interface)
	v := ok && len(implementers(fn.Pkg().Scope(), iface)) == 0 &&
		(fn.Pkg() == r.pass.Pkg || !r.implementedHere(fn) && r.moduleForwarder(fn) == nil)
	if r.ports == nil {
		r.ports = map[*types.Func]bool{}
	}
	r.ports[fn] = v
	return v
}

// portShape reports whether a method's parameters, after a leading
// context.Context, are the helper's: (script string, keys []string,
// args ...any) for the EVAL family (or args []any), (key string, value, ttl) with a
// duration or integer TTL for SetNX.
func portShape(s spec, sig *types.Signature) bool {
	var ps []types.Type
	for v := range sig.Params().Variables() {
		ps = append(ps, v.Type())
	}
	if len(ps) > 0 && syntax.IsContext(ps[0]) {
		ps = ps[1:]
	}
	if len(ps) != 3 || !syntax.IsString(ps[0]) {
		return false
	}
	if s.h == hEval {
		keys, ok := ps[1].Underlying().(*types.Slice)
		args, variadic := ps[2].Underlying().(*types.Slice)
		return ok && syntax.IsString(keys.Elem()) && variadic && types.IsInterface(args.Elem())
	}
	return syntax.IsInteger(ps[2])
}

// declaresPort reports whether a package declares a client interface that
// port reads: such a package reaches a client even though it imports none.
// A client package's own interfaces (go-redis's Scripter) are the client,
// not a port: reading the client's whole package as client use would cost
// every vet run of a module that vendors or builds it.
func declaresPort(pkg *types.Package) bool {
	if known(stripVendor(pkg.Path())) != nil {
		return false
	}
	info := known(portPath)
	for _, m := range interfaceMethods(pkg) {
		if s, ok := info.specs[m.Name()]; ok && portShape(s, m.Signature()) {
			return true
		}
	}
	return false
}
