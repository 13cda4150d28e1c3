// Package origin traces where a lock token comes from (Of, and the
// Analyzer's Tracer): fresh randomness, a value that is not unique per
// acquisition (a constant, the host name, the time, math/rand, a
// package-level variable, a field drawn once per object), or something
// that cannot be followed. Helpers of other packages are judged by their
// Source facts (facts.go).
package origin

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// Strength says whether a value can serve as a lock token.
type Strength int

const (
	Untraced Strength = iota // cannot be followed (a parameter, a field, an unknown call): say nothing
	Weak                     // not unique per acquisition
	Strong                   // fresh randomness (crypto/rand, a random UUID)
)

// Origin is where a token value comes from.
type Origin struct {
	Strength Strength
	// Reasons name what makes a weak value weak: `the constant "1"`,
	// "os.Hostname", "time.Now", "math/rand's global source", "the
	// package-level variable token" ...
	Reasons []string
	// Drawn is, for a value drawn once and then reused (a field only
	// constructors set, a package-level variable), the strength of what
	// was drawn: a reentrant lock's owner id is drawn once per owner by
	// design, and is sound when that draw is strong.
	Drawn Strength
	// Once are the reasons saying a value is drawn once ("field token
	// set once by NewLock"), among Reasons.
	Once []string
}

// Sources is the origin without its Once reasons: where the values
// drawn once come from, for a message that cannot say both.
func (o Origin) Sources() Origin {
	o.Reasons = slices.DeleteFunc(slices.Clone(o.Reasons), func(r string) bool { return slices.Contains(o.Once, r) })
	o.Once = nil
	return o
}

// Reason joins the reasons: "os.Hostname and os.Getpid".
func (o Origin) Reason() string {
	switch len(o.Reasons) {
	case 0:
		return ""
	case 1:
		return o.Reasons[0]
	}
	return strings.Join(o.Reasons[:len(o.Reasons)-1], ", ") + " and " + o.Reasons[len(o.Reasons)-1]
}

var untraced = Origin{}

func weak(reason string) Origin { return Origin{Strength: Weak, Reasons: []string{reason}} }

var strong = Origin{Strength: Strong}

// Of traces the value an acquire writes (Op.Value) to its source,
// through locals, string building and one-statement helpers of the package.
//
// Weak: a constant; os.Hostname, os.Getpid and friends; a loop index; an
// integer parameter named like a worker or goroutine id; time.Now and what is
// derived from it; math/rand (v1 and v2); time- or name-based UUIDs; a
// package-level variable (computed once, even from crypto/rand).
// Strong: crypto/rand (Read into a buffer, Text, Int), uuid.New/NewRandom/
// NewString/NewV7 (google/uuid), uuid.NewV4/NewV7 (gofrs, satori), and any
// value built from one of those. A value built from several sources is
// strong when any source is strong, weak when all are weak, else untraced.
// Parameters and struct fields are untraced: the caller may pass a fresh
// token.
func Of(x *syntax.Index, e ast.Expr) Origin {
	t := &tracer{x: x, seen: map[types.Object]bool{}}
	return t.origin(e, 0)
}

// maxDepth bounds how far a value is traced.
const maxDepth = 8

type tracer struct {
	x    *syntax.Index
	seen map[types.Object]bool
	// source returns the Source fact of a function of another package
	// (nil when facts are not available).
	source func(*types.Func) *Source
	// acq is the function holding the acquire whose token is traced: a
	// field written only outside it, by a constructor, is a token drawn
	// once per object (nil: fields are untraced).
	acq *ast.FuncDecl
	// viaCallers: a parameter of an unexported function of the package
	// is traced through the arguments its calls pass (Passed).
	viaCallers bool
}

func (t *tracer) origin(e ast.Expr, depth int) Origin {
	e = ast.Unparen(e)
	if depth > maxDepth || e == nil {
		return untraced
	}
	info := t.x.TypesInfo
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return weak("the constant " + constDisplay(tv.Value))
	}
	switch x := e.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		v, ok := t.x.ObjOf(x).(*types.Var)
		switch {
		case !ok:
			return untraced
		case !v.IsField():
			return t.variable(v, depth)
		}
		if sel, ok := x.(*ast.SelectorExpr); ok {
			if o, ok := t.localField(sel, v, depth); ok {
				return o
			}
			return t.field(sel, v, depth)
		}
		return untraced
	case *ast.CallExpr:
		return t.call(x, -1, depth)
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return t.derived([]ast.Expr{x.X, x.Y}, depth)
		}
	case *ast.SliceExpr:
		return t.origin(x.X, depth+1)
	}
	return untraced
}

// variable traces a variable through its assignments.
func (t *tracer) variable(v *types.Var, depth int) Origin {
	if t.seen[v] {
		return untraced
	}
	t.seen[v] = true
	defer delete(t.seen, v)
	if v.Pkg() != t.x.Pkg {
		return untraced
	}
	assigns := t.x.Writes(v)
	if syntax.IsPkgLevel(v) {
		for _, a := range assigns {
			if !t.x.InInit(a.Pos) {
				return untraced // reassigned in a function: maybe per acquisition
			}
		}
		o := weak(fmt.Sprintf("the package-level variable %s", v.Name()))
		if len(assigns) == 1 && assigns[0].Value() != nil {
			o.Drawn = t.origin(assigns[0].Value(), depth+1).Strength
		}
		return o
	}
	if t.x.IsParam(v) {
		if syntax.IsInteger(v.Type()) && workerName(v.Name()) {
			return weak(fmt.Sprintf("the worker id %s", v.Name()))
		}
		if t.viaCallers {
			return t.argsOf(v, depth, t.origin)
		}
		return untraced
	}
	// A byte buffer filled by crypto/rand (or math/rand).
	if o, ok := t.filled(v); ok {
		return o
	}
	for _, a := range assigns {
		if a.Kind == syntax.Loop {
			return weak(fmt.Sprintf("the loop index %s (a goroutine or worker id)", v.Name()))
		}
	}
	var out []Origin
	chosen := 0 // alternatives that are the caller's (cfg.ID, a parameter)
	for _, a := range assigns {
		switch a.Kind {
		case syntax.Range:
			if a.Idx == 0 || syntax.IsInteger(t.x.TypesInfo.TypeOf(a.Rhs)) {
				return weak(fmt.Sprintf("the loop index %s (a goroutine or worker id)", v.Name()))
			}
			return untraced
		case syntax.Zero:
			continue
		case syntax.Define, syntax.Assign:
			if a.Idx >= 0 {
				call, ok := ast.Unparen(a.Rhs).(*ast.CallExpr)
				if !ok {
					return untraced
				}
				out = append(out, t.call(call, a.Idx, depth))
			} else if o := t.origin(a.Rhs, depth+1); o.Strength == Untraced && t.callers(a.Rhs) {
				chosen++
			} else {
				out = append(out, o)
			}
		default:
			return untraced
		}
	}
	if chosen > 0 {
		// The caller's value, or else a default (id := cfg.ID; if id == ""
		// { id = newID() }): the caller's is its own choice, as a token
		// parameter is; a strong default is sound, anything else untraced.
		if o := all(out); o.Strength == Strong {
			return o
		}
		return untraced
	}
	return all(out)
}

// callers reports a value the function's caller gives: a parameter, or a
// field of one (cfg.InstanceID).
func (t *tracer) callers(e ast.Expr) bool {
	e = ast.Unparen(e)
	if sel, ok := e.(*ast.SelectorExpr); ok {
		e = sel.X
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && t.x.IsParam(t.x.ObjOf(id))
}

// all combines alternative values of one variable: weak only when every
// alternative is weak, strong only when every one is strong.
func all(out []Origin) Origin {
	if len(out) == 0 {
		return untraced
	}
	res := out[0]
	for _, o := range out[1:] {
		if o.Strength != res.Strength {
			return untraced
		}
		res.Reasons = merge(res.Reasons, o.Reasons)
		res.Once = merge(res.Once, o.Once)
	}
	return res
}

// derived combines the sources a value is built from: strong when any is
// strong, weak when all are weak (constants count only when nothing else
// does), else untraced.
func (t *tracer) derived(args []ast.Expr, depth int) Origin {
	var consts, weaks, once []string
	traced, unknown := 0, false
	for _, a := range args {
		o := t.origin(a, depth+1)
		switch o.Strength {
		case Strong:
			return strong
		case Untraced:
			unknown = true
			continue
		}
		if tv, ok := t.x.TypesInfo.Types[ast.Unparen(a)]; ok && tv.Value != nil {
			consts = merge(consts, o.Reasons)
			continue
		}
		traced++
		weaks = merge(weaks, o.Reasons)
		once = merge(once, o.Once)
	}
	if unknown {
		return untraced
	}
	if traced == 0 {
		if len(consts) == 0 {
			return untraced
		}
		return weak("a constant")
	}
	return Origin{Strength: Weak, Reasons: weaks, Once: once}
}

func merge(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) && len(a) < 4 {
			a = append(a, s)
		}
	}
	return a
}

// call traces the result idx (-1: the only or first result) of a call.
func (t *tracer) call(call *ast.CallExpr, idx int, depth int) Origin {
	info := t.x.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		if len(call.Args) == 1 {
			return t.origin(call.Args[0], depth+1) // string(b), []byte(s)
		}
		return untraced
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return untraced
	}
	fn = fn.Origin()
	if r, ok := processID(fn); ok {
		return weak(r)
	}
	path, name := fn.Pkg().Path(), fn.Name()
	recv := resolve.RecvName(fn)
	var recvExpr ast.Expr
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && recv != "" {
		recvExpr = sel.X
	}
	switch path {
	case "os":
		switch name {
		case "Getuid", "Geteuid", "Getgid", "Getegid", "Executable", "Getwd":
			return weak("os." + name)
		}
	case "github.com/petermattis/goid":
		if name == "Get" {
			return weak(goroutineID)
		}
	case "time":
		if recv == "Time" {
			if o := t.origin(recvExpr, depth+1); o.Strength == Weak {
				return o
			}
			return untraced
		}
		switch name {
		case "Now", "Since", "Until":
			return weak("time.Now")
		}
	case "math/rand", "math/rand/v2":
		return t.randCall(fn, recvExpr, depth)
	case "crypto/rand":
		return strong
	case "github.com/google/uuid":
		switch name {
		case "New", "NewRandom", "NewString", "NewV7", "NewRandomFromReader":
			return strong
		case "NewUUID", "NewV6", "NewDCEGroup", "NewDCEPerson", "NewDCESecurity":
			return weak("a time-based UUID (uuid." + name + ")")
		case "NewSHA1", "NewMD5", "NewHash":
			return weak("a name-based UUID (uuid." + name + ")")
		case "Must":
			if len(call.Args) == 1 {
				return t.origin(call.Args[0], depth+1)
			}
		case "String", "URN", "MarshalText", "MarshalBinary":
			if recvExpr != nil {
				return t.origin(recvExpr, depth+1)
			}
		}
		return untraced
	case "github.com/gofrs/uuid", "github.com/gofrs/uuid/v5", "github.com/satori/go.uuid":
		switch name {
		case "NewV4", "NewV7":
			return strong
		case "NewV1", "NewV2", "NewV6":
			return weak("a time-based UUID (uuid." + name + ")")
		case "NewV3", "NewV5":
			return weak("a name-based UUID (uuid." + name + ")")
		case "Must":
			if len(call.Args) == 1 {
				return t.origin(call.Args[0], depth+1)
			}
		case "String", "MarshalText", "Bytes":
			if recvExpr != nil {
				return t.origin(recvExpr, depth+1)
			}
		}
		return untraced
	case "math/big":
		if recvExpr != nil && (name == "String" || name == "Text" || name == "Int64" || name == "Uint64" || name == "Bytes") {
			return t.origin(recvExpr, depth+1)
		}
		return untraced
	}
	if args, ok := encoders(path, recv, name, call); ok {
		return t.derived(args, depth)
	}
	// A helper of this package: trace what it returns.
	if fn.Pkg() == t.x.Pkg {
		if decl := t.x.Decl(fn); decl != nil {
			return t.helper(decl, idx, depth)
		}
		return untraced
	}
	// A helper of another package: what its fact says.
	if t.source != nil && idx <= 0 {
		if src := t.source(fn); src != nil {
			return Origin{Strength: src.Strength, Reasons: src.Reasons}
		}
	}
	return untraced
}

// encoders are functions whose result is built from their arguments only.
func encoders(path, recv, name string, call *ast.CallExpr) ([]ast.Expr, bool) {
	if call.Ellipsis.IsValid() && !(path == "fmt" && name != "Sprintf") {
		return nil, false
	}
	switch path {
	case "encoding/hex":
		if name == "EncodeToString" {
			return call.Args, true
		}
	case "encoding/base64", "encoding/base32":
		if recv == "Encoding" && name == "EncodeToString" {
			return call.Args, true
		}
	case "strconv":
		switch name {
		case "Itoa", "FormatInt", "FormatUint", "Quote":
			return call.Args[:1], true
		}
	case "fmt":
		switch name {
		case "Sprintf", "Sprint", "Sprintln":
			return call.Args, true
		}
	case "strings":
		switch name {
		case "ToLower", "ToUpper", "TrimSpace", "Join", "Repeat":
			return call.Args[:1], true
		}
	case "encoding/binary":
		switch name {
		case "Uint16", "Uint32", "Uint64":
			return call.Args, true
		}
	}
	return nil, false
}

// helper traces what a function of the package returns: every return
// statement's result idx, skipping error returns (a zero value returned
// with a non-nil error).
func (t *tracer) helper(decl *ast.FuncDecl, idx int, depth int) Origin {
	if decl.Body == nil || depth > 3 {
		return untraced
	}
	if idx < 0 {
		idx = 0
	}
	var out []Origin
	ok := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 0 || idx >= len(n.Results) {
				ok = false
				return false
			}
			if len(n.Results) > 1 && isErrorReturn(t.x, n) || t.onErrorPath(n) {
				return false
			}
			if isZeroConst(t.x, n.Results[idx]) {
				return false // return "" on a failure path
			}
			out = append(out, t.origin(n.Results[idx], depth+1))
		}
		return true
	})
	if !ok {
		return untraced
	}
	o := all(out)
	if o.Strength == Untraced && len(out) > 0 {
		// What is returned is built in ways the tracer does not follow
		// (a byte loop over a random source, a goroutine id cut out of
		// the stack header): the randomness, or the stack, underneath
		// decides.
		weakRand, strongRand := t.randomness(decl, 0, map[*ast.FuncDecl]bool{})
		switch {
		case strongRand:
		case len(weakRand) > 0:
			return Origin{Strength: Weak, Reasons: weakRand}
		case t.readsStack(decl, 0, map[*ast.FuncDecl]bool{}):
			return weak(goroutineID)
		}
	}
	return o
}

// randomness reports whether a function (or a helper of the package it
// calls, or one of another package with a Source fact) draws weak random
// values (their reasons: a time-seeded math/rand source ...), and whether
// it draws from a strong source (crypto/rand, a generator seeded from it,
// math/rand/v2's runtime-seeded functions). A draw from a generator whose
// seed cannot be followed counts as neither.
func (t *tracer) randomness(decl *ast.FuncDecl, depth int, seen map[*ast.FuncDecl]bool) (weakRand []string, strongRand bool) {
	if decl == nil || decl.Body == nil || depth > 3 || seen[decl] {
		return nil, false
	}
	seen[decl] = true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, _ := typeutil.Callee(t.x.TypesInfo, call).(*types.Func)
		if fn == nil || fn.Pkg() == nil {
			return true
		}
		switch path := fn.Pkg().Path(); {
		case mathRand(path):
			var recv ast.Expr
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
				recv = sel.X
			}
			switch o := t.randCall(fn, recv, 0); o.Strength {
			case Weak:
				weakRand = merge(weakRand, o.Reasons)
			case Strong:
				strongRand = true
			}
		case path == "crypto/rand":
			strongRand = true
		case fn.Pkg() == t.x.Pkg:
			w, s := t.randomness(t.x.Decl(fn.Origin()), depth+1, seen)
			weakRand, strongRand = merge(weakRand, w), strongRand || s
		case t.source != nil:
			if src := t.source(fn); src != nil {
				if src.Strength == Weak && slices.ContainsFunc(src.Reasons, randReason) {
					weakRand = merge(weakRand, src.Reasons)
				}
				strongRand = strongRand || src.Strength == Strong
			}
		}
		return true
	})
	return weakRand, strongRand
}

// field traces a struct field holding the token of an acquire. A field of
// this package's type that only constructors set (composite literals and
// assignments outside the acquiring function, in functions that are not
// methods of the type) while the acquire is a method of the type reading
// it from its receiver, is drawn once per object and reused by every
// acquisition: not unique per acquisition, whatever its source. Anything
// else (a field the acquiring method sets, a field of another type) is
// untraced: the caller may set a fresh token.
func (t *tracer) field(sel *ast.SelectorExpr, v *types.Var, depth int) Origin {
	if t.seen[v] {
		return untraced
	}
	writes, fds := t.ctorWrites(sel, v)
	if writes == nil {
		return untraced
	}
	t.seen[v] = true
	defer delete(t.seen, v)
	var where string
	var out []Origin
	fromCallers := 0
	for i, w := range writes {
		fd := fds[i]
		if where == "" {
			where = fd.Name.Name
		}
		if o, ok := t.callersArg(fd, w.Value(), depth+1); ok {
			fromCallers++
			out = append(out, o)
			continue
		}
		out = append(out, t.origin(w.Value(), depth+1))
	}
	// Short: LA107's message quotes it.
	once := fmt.Sprintf("field %s set once by %s", v.Name(), where)
	o := all(out)
	if o.Strength == Weak {
		return Origin{Strength: Weak, Reasons: merge([]string{once}, o.Reasons), Drawn: Weak, Once: []string{once}}
	}
	if fromCallers == len(writes) && !slices.ContainsFunc(out, isWeak) {
		// Every write stores the constructor's caller's value (New(key,
		// value)): a caller making one object per acquire with a fresh
		// token is sound; judged at the callers, as a token parameter is.
		return untraced
	}
	w := weak(once)
	w.Drawn = drawn(out)
	return w
}

func isWeak(o Origin) bool { return o.Strength == Weak }

// ctorWrites returns the writes of a field of the acquiring method's type,
// read from its receiver, when only constructors write it (functions
// other than the acquiring one and the type's methods), with the
// function of each; nil for any other field.
func (t *tracer) ctorWrites(sel *ast.SelectorExpr, v *types.Var) ([]syntax.Write, []*ast.FuncDecl) {
	if t.acq == nil || t.acq.Recv == nil || v.Pkg() != t.x.Pkg {
		return nil, nil
	}
	selection := t.x.TypesInfo.Selections[sel]
	if selection == nil || !sameNamed(selection.Recv(), t.recvType()) {
		return nil, nil
	}
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || !t.x.IsParam(t.x.ObjOf(id)) {
		return nil, nil
	}
	writes := append(append([]syntax.Write(nil), t.x.FieldInits(v)...), t.x.Writes(v)...)
	if len(writes) == 0 {
		return nil, nil
	}
	fds := make([]*ast.FuncDecl, len(writes))
	for i, w := range writes {
		fd := t.funcAt(w.Pos)
		if w.Value() == nil || fd == nil || fd == t.acq || isMethodOf(t.x, fd, t.recvType()) {
			return nil, nil
		}
		fds[i] = fd
	}
	return writes, fds
}

// Param is a parameter of a function: Index among its parameters.
type Param struct {
	Func  *types.Func
	Index int
}

// StoredParams returns, for a token the acquiring method fn reads from a
// field of its receiver that only constructors set, each from one of its
// own parameters (New(client, key, value) { return &Lock{value: value} }),
// those parameters: the token is what the constructor's callers pass,
// judged where they pass it. Nil for any other value.
func (tr *Tracer) StoredParams(e ast.Expr, fn *ast.FuncDecl) []Param {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v, ok := tr.x.ObjOf(sel).(*types.Var)
	if !ok || !v.IsField() {
		return nil
	}
	t := &tracer{x: tr.x, seen: map[types.Object]bool{}, acq: fn}
	writes, fds := t.ctorWrites(sel, v)
	var out []Param
	for i, w := range writes {
		ctor, _ := tr.x.TypesInfo.Defs[fds[i].Name].(*types.Func)
		p, ok := tr.x.ObjOf(ast.Unparen(w.Value())).(*types.Var)
		if ctor == nil || !ok {
			return nil
		}
		params := ctor.Signature().Params()
		idx := slices.IndexFunc(slices.Collect(params.Variables()), func(q *types.Var) bool { return q == p })
		if idx < 0 || ctor.Signature().Variadic() && idx == params.Len()-1 {
			return nil
		}
		out = append(out, Param{Func: ctor, Index: idx})
	}
	return out
}

// callersArg traces a value a function stores that is one of its own
// parameters: the arguments this package's calls of the function pass for
// it (weak if any is weak; untraced when nothing here calls it). ok is
// false when the value is not such a parameter.
func (t *tracer) callersArg(fd *ast.FuncDecl, e ast.Expr, depth int) (Origin, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	fn, _ := t.x.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok || fn == nil {
		return untraced, false
	}
	params := fn.Signature().Params()
	i := slices.IndexFunc(slices.Collect(params.Variables()), func(p *types.Var) bool { return p == t.x.ObjOf(id) })
	if i < 0 || (fn.Signature().Variadic() && i == params.Len()-1) {
		return untraced, false
	}
	var out []Origin
	for n := range t.x.Inspector().PreorderSeq((*ast.CallExpr)(nil)) {
		call := n.(*ast.CallExpr)
		if c, _ := typeutil.Callee(t.x.TypesInfo, call).(*types.Func); c == nil || c.Origin() != fn || len(call.Args) <= i || call.Ellipsis.IsValid() {
			continue
		}
		o := t.origin(call.Args[i], depth)
		if o.Strength == Weak {
			return o, true
		}
		out = append(out, o)
	}
	return all(out), true
}

// drawn is the strength of what a field's writes draw once: strong when
// one is strong and none weak — another write storing a parameter (an
// option setter, WithClientID(id)) is its caller's choice, as a token
// parameter is — else what they agree on.
func drawn(out []Origin) Strength {
	strong := false
	for _, o := range out {
		switch o.Strength {
		case Weak:
			return all(out).Strength
		case Strong:
			strong = true
		}
	}
	if strong {
		return Strong
	}
	return all(out).Strength
}

// localField traces a field of a local struct variable (l.token, with
// l := &state{token: x} or l.token = x in the function): the values the
// variable's composite literal and the assignments through it give the
// field. ok is false when the selector's base is no such local.
func (t *tracer) localField(sel *ast.SelectorExpr, v *types.Var, depth int) (Origin, bool) {
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return untraced, false
	}
	base, ok := t.x.ObjOf(id).(*types.Var)
	if !ok || base.IsField() || base.Pkg() != t.x.Pkg || t.x.IsParam(base) || syntax.IsPkgLevel(base) || t.seen[base] {
		return untraced, false
	}
	fd := t.funcAt(sel.Pos())
	w, single := t.x.Single(base)
	if fd == nil || !single {
		return untraced, true // a local written twice: not followed
	}
	t.seen[base] = true
	defer delete(t.seen, base)
	var out []Origin
	if lit := compositeOf(w.Value()); lit != nil {
		if e := fieldValue(t.x.TypesInfo, lit, v); e != nil {
			out = append(out, t.origin(e, depth+1))
		}
	} else if w.Value() != nil {
		return untraced, true // a struct from a call: not followed
	}
	for _, fw := range t.x.Writes(v) {
		if fw.Pos < fd.Pos() || fw.Pos >= fd.End() {
			continue // the field of another variable, elsewhere
		}
		lhs := assignedSelector(fd, fw.Pos, v, t.x.TypesInfo)
		if lhs == nil {
			return untraced, true
		}
		if b, ok := ast.Unparen(lhs.X).(*ast.Ident); !ok || t.x.ObjOf(b) != base {
			continue
		}
		if fw.Value() == nil {
			return untraced, true
		}
		out = append(out, t.origin(fw.Value(), depth+1))
	}
	return all(out), true
}

// compositeOf returns the composite literal of T{...} or &T{...}.
func compositeOf(e ast.Expr) *ast.CompositeLit {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// fieldValue returns the value a composite literal gives field v, or nil.
func fieldValue(info *types.Info, lit *ast.CompositeLit, v *types.Var) ast.Expr {
	for i, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && info.Uses[id] == v {
				return kv.Value
			}
			continue
		}
		st, ok := info.TypeOf(lit).Underlying().(*types.Struct)
		if ok && i < st.NumFields() && st.Field(i) == v {
			return el
		}
	}
	return nil
}

// assignedSelector returns the target x.f of field v in the assignment at
// pos in fd, or nil.
func assignedSelector(fd *ast.FuncDecl, pos token.Pos, v *types.Var, info *types.Info) *ast.SelectorExpr {
	var out *ast.SelectorExpr
	ast.Inspect(fd, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Pos() != pos {
			return out == nil
		}
		for _, l := range as.Lhs {
			if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && info.Uses[sel.Sel] == v {
				out = sel
			}
		}
		return false
	})
	return out
}

// recvType is the named type of the acquiring method's receiver.
func (t *tracer) recvType() types.Type {
	if t.acq == nil || t.acq.Recv == nil || len(t.acq.Recv.List) == 0 {
		return nil
	}
	return t.x.TypesInfo.TypeOf(t.acq.Recv.List[0].Type)
}

// funcAt is the function declaration holding a position.
func (t *tracer) funcAt(pos token.Pos) *ast.FuncDecl {
	for _, f := range t.x.Files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
				return fd
			}
		}
	}
	return nil
}

// sameNamed reports whether two types are the same named type, behind
// pointers.
func sameNamed(a, b types.Type) bool {
	na, nb := syntax.NamedOf(a), syntax.NamedOf(b)
	return na != nil && nb != nil && na.Origin() == nb.Origin()
}

// isMethodOf reports whether a function is a method of the named type t.
func isMethodOf(x *syntax.Index, fd *ast.FuncDecl, t types.Type) bool {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	return sameNamed(x.TypesInfo.TypeOf(fd.Recv.List[0].Type), t)
}

// isErrorReturn reports whether a return statement returns a non-nil error
// last (the other results are then zero values, not tokens).
func isErrorReturn(x *syntax.Index, ret *ast.ReturnStmt) bool {
	last := ast.Unparen(ret.Results[len(ret.Results)-1])
	if id, ok := last.(*ast.Ident); ok && id.Name == "nil" {
		return false
	}
	return syntax.IsError(x.TypesInfo.TypeOf(last)) || types.Implements(x.TypesInfo.TypeOf(last), errorIface())
}

// onErrorPath reports a return inside `if err != nil { ... }`: a fallback
// for a failed call (crypto/rand's Read), not what the function draws.
func (t *tracer) onErrorPath(ret *ast.ReturnStmt) bool {
	var prev ast.Node = ret
	for n := t.x.Parent(ret); n != nil; prev, n = n, t.x.Parent(n) {
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.IfStmt:
			c, ok := ast.Unparen(n.Cond).(*ast.BinaryExpr)
			if ok && prev == n.Body && c.Op == token.NEQ && syntax.IsNil(t.x.TypesInfo, c.Y) && syntax.IsError(t.x.TypesInfo.TypeOf(c.X)) {
				return true
			}
		}
	}
	return false
}

// isZeroConst reports "", 0 or the predeclared nil (not a variable
// named nil).
func isZeroConst(x *syntax.Index, e ast.Expr) bool {
	e = ast.Unparen(e)
	if syntax.IsNil(x.TypesInfo, e) {
		return true
	}
	tv := x.TypesInfo.Types[e]
	if tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.String:
		return constant.StringVal(tv.Value) == ""
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	}
	return false
}

func errorIface() *types.Interface {
	return types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
}

// filled reports a byte buffer (a slice, or an array read as b[:]) that is
// filled by crypto/rand.Read, io.ReadFull(crypto/rand.Reader, b), a Read
// of /dev/urandom or a math/rand Read (as strong as its generator).
func (t *tracer) filled(v *types.Var) (Origin, bool) {
	if !isBytes(v.Type()) && !isByteArray(v.Type()) {
		return untraced, false
	}
	for _, id := range t.x.Uses(v) {
		var arg ast.Node = id
		if sl, ok := t.x.Parent(id).(*ast.SliceExpr); ok && sl.X == ast.Expr(id) {
			arg = sl
		}
		call, ok := t.x.Parent(arg).(*ast.CallExpr)
		if !ok || ast.Unparen(call.Fun) == arg {
			continue
		}
		fn, _ := typeutil.Callee(t.x.TypesInfo, call).(*types.Func)
		if fn == nil || fn.Pkg() == nil {
			continue
		}
		switch path := fn.Pkg().Path(); {
		case path == "crypto/rand" && fn.Name() == "Read":
			return strong, true
		case mathRand(path) && fn.Name() == "Read":
			var recv ast.Expr
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
				recv = sel.X
			}
			if o := t.randCall(fn, recv, 0); o.Strength != Untraced {
				return o, true
			}
		case path == "io" && (fn.Name() == "ReadFull" || fn.Name() == "ReadAtLeast") && len(call.Args) > 0:
			if src, ok := t.x.ObjOf(call.Args[0]).(*types.Var); ok && src.Pkg() != nil && src.Pkg().Path() == "crypto/rand" || t.urandom(call.Args[0]) {
				return strong, true
			}
		case path == "os" && fn.Name() == "Read" && fn.Signature().Recv() != nil:
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && t.urandom(sel.X) {
				return strong, true
			}
		}
	}
	return untraced, false
}

// urandom reports a local file that every write opens as /dev/urandom
// (f, _ := os.Open("/dev/urandom")): the kernel's generator, which
// crypto/rand reads too (redisync's owner id).
func (t *tracer) urandom(e ast.Expr) bool {
	v, ok := t.x.ObjOf(ast.Unparen(e)).(*types.Var)
	if !ok || v.Pkg() != t.x.Pkg || syntax.IsPkgLevel(v) {
		return false
	}
	ws := t.x.Writes(v)
	for _, w := range ws {
		call, ok := ast.Unparen(w.Rhs).(*ast.CallExpr)
		if !ok || w.Kind != syntax.Define && w.Kind != syntax.Assign || len(call.Args) == 0 {
			return false
		}
		fn, _ := typeutil.Callee(t.x.TypesInfo, call).(*types.Func)
		tv := t.x.TypesInfo.Types[call.Args[0]]
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "os" || fn.Name() != "Open" && fn.Name() != "OpenFile" ||
			tv.Value == nil || tv.Value.Kind() != constant.String || constant.StringVal(tv.Value) != "/dev/urandom" {
			return false
		}
	}
	return len(ws) > 0
}

func isByteArray(t types.Type) bool {
	a, ok := t.Underlying().(*types.Array)
	if !ok {
		return false
	}
	b, ok := a.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// randReason reports a reason that names a math/rand source.
func randReason(r string) bool { return strings.HasPrefix(r, "math/rand") }

func isBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// workerName reports a name with a word part naming a worker or goroutine:
// workerID, worker, goroutineID, threadID, wid, gid.
func workerName(name string) bool {
	for _, w := range words(name) {
		switch w {
		case "worker", "goroutine", "thread", "routine", "wid", "gid", "tid":
			return true
		}
	}
	return false
}

// words splits an identifier into lower-case word parts (camelCase and
// snake_case).
func words(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = nil
		}
	}
	for i, r := range name {
		switch {
		case r == '_' || unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && len(cur) > 0 && !unicode.IsUpper(cur[len(cur)-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

func constDisplay(v constant.Value) string {
	if v.Kind() == constant.String {
		s := constant.StringVal(v)
		if len(s) > 40 {
			s = s[:40] + "..."
		}
		return fmt.Sprintf("%q", s)
	}
	return v.ExactString()
}
