package analyzertest

import (
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// The layers' tests (keys, fence, region, reply, origin, fix) type-check
// small packages and build Ops with a tiny resolver of their own (Load), so
// each layer is tested apart from the real call resolution. A fake command is a function of the test package:
//
//	setnx(key, value)        SET key value NX    (go-redis-like *Cmd reply)
//	setnxOld(key, value)     SETNX
//	del(keys...)             DEL; also unlink, getdel, delifeq(key, tok),
//	                         delex(key, tok), setIfeq(key, tok), pexpire(key),
//	                         expire(key), incr(key), wait(), watch(key)
//	get(key)                 GET (its String() is the value)
//	eval(script, keys...)    EVAL with a visible script
//	rgX(...)                 the same command on redigo: (reply any, err error)
//	vkX(...)                 on valkey-go: a ValkeyResult-like value;
//	                         vkMulti(...) is DoMulti(MULTI, DELIFEQ, EXEC),
//	                         vkFenceMulti(key) DoMulti(MULTI, INCR key, EXEC)
//	glX(...)                 on glide: (value, error)
//	rxDo(rxCmd(&v, "CMD", key, args...))  radix: the reply goes into v
//	libUnlock(), libExtend() redsync: (bool, error); libRelease(),
//	libRefresh() redislock: error; libLock() / libObtain() acquire;
//	libNewMutex(name)        redsync's NewMutex: a library step on name
//	multi(func() {...}), pipeline(func() {...})  group the ops inside in a
//	                         MULTI/EXEC or a plain pipeline; they return
//	                         ([]Cmder, error) like TxPipelined.
const fakes = `
type Cmder interface{ Err() error }
type Cmd struct{}
func (c *Cmd) Err() error                 { return nil }
func (c *Cmd) Val() int64                 { return 0 }
func (c *Cmd) Int() (int64, error)        { return 0, nil }
func (c *Cmd) Result() (int64, error)     { return 0, nil }
func (c *Cmd) String() string             { return "" }
type VResult struct{}
func (r VResult) Error() error                { return nil }
func (r VResult) AsInt64() (int64, error)     { return 0, nil }
func (r VResult) ToString() (string, error)   { return "", nil }
type Action interface{ run() }
type act struct{}
func (act) run() {}

func setnx(key string, value any) *Cmd     { return nil }
func setnxOld(key string, value any) *Cmd  { return nil }
func set(key string, value any) *Cmd       { return nil }
func get(key string) *Cmd                  { return nil }
func del(keys ...string) *Cmd              { return nil }
func unlink(keys ...string) *Cmd           { return nil }
func getdel(key string) *Cmd               { return nil }
func delifeq(key, tok string) *Cmd         { return nil }
func delex(key, tok string) *Cmd           { return nil }
func setIfeq(key, tok string) *Cmd         { return nil }
func pexpire(key string) *Cmd              { return nil }
func expire(key string) *Cmd               { return nil }
func incr(key string) *Cmd                 { return nil }
func wait() *Cmd                           { return nil }
func watch(key string) *Cmd                { return nil }
func eval(script string, keys ...string) *Cmd { return nil }
func rgDelifeq(key, tok string) (any, error) { return nil, nil }
func rgSetIfeq(key, tok string) (any, error) { return nil, nil }
func rgSend(key, tok string) error           { return nil }
func rgIncr(key string) (any, error)         { return nil, nil }
func rgSetnx(key string, value any) (any, error) { return nil, nil }
func vkDelifeq(key, tok string) VResult      { return VResult{} }
func vkSetIfeq(key, tok string) VResult      { return VResult{} }
func vkIncr(key string) VResult              { return VResult{} }
func vkSetnx(key string, value any) VResult  { return VResult{} }
func vkMulti(cmds ...int) []VResult          { return nil }
func vkFenceMulti(key string) []VResult      { return nil }
func glDelifeq(key, tok string) (any, error) { return nil, nil }
func glSetIfeq(key, tok string) (string, error) { return "", nil }
func rxCmd(rcv any, cmd string, args ...string) Action { return act{} }
func rxDo(a Action) error                    { return nil }
func libUnlock() (bool, error)               { return false, nil }
func libExtend() (bool, error)               { return false, nil }
func libRelease() error                      { return nil }
func libRefresh() error                      { return nil }
func libLock() error                         { return nil }
func libNewMutex(name string) error          { return nil }
func multi(fn func()) ([]Cmder, error)       { return nil, nil }
func pipeline(fn func()) ([]Cmder, error)    { return nil, nil }
`

// Snippet is a small package p type-checked from source, with the Ops of
// the fakes it calls and default settings.
type Snippet struct {
	*syntax.Index
	Ops      []*resolve.Op
	Settings *settings.Settings
}

// Load type-checks src (a package p with the fakes appended) and returns
// it with the test resolver's Ops.
func Load(t *testing.T, src string) *Snippet {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src+fakes, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Implicits:  map[ast.Node]types.Object{},
		Scopes:     map[ast.Node]*types.Scope{},
	}
	conf := types.Config{Importer: newTestImporter(t, fset)}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	sn := &Snippet{Index: syntax.New(fset, pkg, info, []*ast.File{f}, nil), Settings: settings.Default()}
	sn.Ops = testOps(sn, f)
	return sn
}

// testImporter imports the standard library from export data and the stub
// packages under analyzers/testdata/src (uuid, pgx) from source.
type testImporter struct {
	stubs string
	fset  *token.FileSet
	std   types.Importer
	pkgs  map[string]*types.Package
}

func newTestImporter(t *testing.T, fset *token.FileSet) *testImporter {
	return &testImporter{stubs: filepath.Join(Stubs(t), "src"), fset: fset, std: importer.Default(), pkgs: map[string]*types.Package{}}
}

func (ti *testImporter) Import(path string) (*types.Package, error) {
	if p := ti.pkgs[path]; p != nil {
		return p, nil
	}
	dir := filepath.Join(ti.stubs, filepath.FromSlash(path))
	if _, err := os.Stat(dir); err != nil {
		return ti.std.Import(path)
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(ti.fset, name, nil, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: ti}
	p, err := conf.Check(path, ti.fset, files, nil)
	if err != nil {
		return nil, err
	}
	ti.pkgs[path] = p
	return p, nil
}

// testOps is the test resolver: calls to the fakes become Ops.
func testOps(in *Snippet, f *ast.File) []*resolve.Op {
	var ops []*resolve.Op
	type group struct {
		tx  *resolve.Tx
		lit *ast.FuncLit
	}
	var groups []group
	var stack []ast.Node
	var decl *ast.FuncDecl
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if fd, ok := n.(*ast.FuncDecl); ok {
			decl = fd
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		id, ok := call.Fun.(*ast.Ident)
		if !ok {
			return true
		}
		name := id.Name
		if (name == "multi" || name == "pipeline") && len(call.Args) == 1 {
			if lit, ok := call.Args[0].(*ast.FuncLit); ok {
				kind := resolve.Multi
				if name == "pipeline" {
					kind = resolve.Pipeline
				}
				groups = append(groups, group{&resolve.Tx{Kind: kind, Pos: call.Pos()}, lit})
			}
			return true
		}
		op := fakeOp(in, name, call)
		if op == nil {
			return true
		}
		op.Call, op.Pos, op.Func = call, call.Pos(), decl
		op.Stack = append([]ast.Node(nil), stack...)
		for _, n := range op.Stack {
			if lit, ok := n.(*ast.FuncLit); ok {
				op.Lit = lit
			}
		}
		for _, g := range groups {
			if call.Pos() > g.lit.Pos() && call.End() < g.lit.End() {
				op.Tx = g.tx
				g.tx.Ops = append(g.tx.Ops, op)
			}
		}
		ops = append(ops, op)
		return true
	})
	return ops
}

// The fakes' clients, by the traits the layers read.
var (
	fakeGoRedis = &resolve.Client{Name: "go-redis/v9", API: resolve.APIGoRedis, LostIsError: true}
	fakeRedigo  = &resolve.Client{Name: "redigo", API: resolve.APIRaw}
	fakeValkey  = &resolve.Client{Name: "valkey-go", API: resolve.APIBuilder, LostIsError: true}
	fakeGlide   = &resolve.Client{Name: "glide", API: resolve.APIGlide}
	fakeRadix   = &resolve.Client{Name: "radix/v4", API: resolve.APIAction, Replies: resolve.InReceiver}
	fakeLibs    = map[string]*resolve.Client{
		"redsync":   {Name: "redsync", API: resolve.APILibrary, LostIsError: true},
		"redislock": {Name: "redislock", API: resolve.APILibrary, LostIsError: true},
	}
)

func fakeOp(in *Snippet, name string, call *ast.CallExpr) *resolve.Op {
	op := &resolve.Op{Kind: resolve.Command, Client: fakeGoRedis, Complete: true}
	args := call.Args
	switch {
	case strings.HasPrefix(name, "lib"):
		op.Kind, op.Method = resolve.Library, strings.TrimPrefix(name, "lib")
		switch op.Method {
		case "Unlock", "Extend", "Lock", "NewMutex":
			op.Client = fakeLibs["redsync"]
		default:
			op.Client = fakeLibs["redislock"]
		}
		op.Step = map[string]string{"Unlock": "release", "Release": "release", "Extend": "extend", "Refresh": "extend", "Lock": "acquire", "Obtain": "acquire", "NewMutex": "locker"}[op.Method]
		op.Keys = args
		return op
	case name == "rxDo":
		action, ok := args[0].(*ast.CallExpr)
		if !ok {
			return nil
		}
		op.Client, op.Expr = fakeRadix, action
		tv := in.TypesInfo.Types[action.Args[1]]
		name = strings.ToLower(constant.StringVal(tv.Value))
		args = append([]ast.Expr(nil), action.Args[2:]...)
	case strings.HasPrefix(name, "rg"):
		op.Client, name = fakeRedigo, strings.ToLower(name[2:3])+name[3:]
	case strings.HasPrefix(name, "vk"):
		op.Client, name = fakeValkey, strings.ToLower(name[2:3])+name[3:]
	case strings.HasPrefix(name, "gl"):
		op.Client, name = fakeGlide, strings.ToLower(name[2:3])+name[3:]
	}
	key := func(i int) {
		if i < len(args) {
			op.Keys = append(op.Keys, args[i])
		}
	}
	switch name {
	case "setnx", "setnxOld", "set":
		op.Name, op.NX, op.TTL = "SET", name == "setnx", resolve.Expire
		if name == "setnxOld" {
			op.Name = "SETNX"
		}
		key(0)
		op.Value = args[1]
	case "del", "unlink", "getdel":
		op.Name = strings.ToUpper(name)
		op.Keys = args
	case "delifeq", "delex":
		op.Name = strings.ToUpper(name)
		key(0)
		op.Match = args[1]
		if name == "delex" {
			op.Cond = "IFEQ"
		}
	case "setIfeq":
		op.Name, op.Cond, op.TTL = "SET", "IFEQ", resolve.Expire
		key(0)
		op.Value, op.Match = args[1], args[1]
	case "send":
		op.Name = "DELIFEQ"
		key(0)
	case "pexpire", "expire", "incr", "wait", "watch", "get":
		op.Name = strings.ToUpper(name)
		key(0)
	case "eval":
		op.Name = "EVAL"
		tv := in.TypesInfo.Types[args[0]]
		text := constant.StringVal(tv.Value)
		op.Script = &resolve.Script{Text: text, Inline: true, Def: call, Pos: call.Pos(), Steps: lua.Classify(text)}
		op.Keys = args[1:]
	case "fenceMulti": // vkFenceMulti: DoMulti(MULTI, INCR key, EXEC)
		op.Name = "INCR"
		key(0)
		op.Tx = &resolve.Tx{Kind: resolve.Multi, Pos: call.Pos(), Ops: []*resolve.Op{op}}
	case "multi": // vkMulti: DoMulti(MULTI, DELIFEQ, EXEC)
		op.Name = "DELIFEQ"
		op.Tx = &resolve.Tx{Kind: resolve.Multi, Pos: call.Pos(), Ops: []*resolve.Op{op}}
	default:
		return nil
	}
	return op
}

// MustCalls is Calls, failing the test when there is none (a test that
// checks nothing must not pass).
func MustCalls(t *testing.T, x *syntax.Index, name string) []*ast.CallExpr {
	t.Helper()
	c := Calls(x, name)
	if len(c) == 0 {
		t.Fatalf("no calls to %s", name)
	}
	return c
}

// Calls returns the calls to the named function, in source order.
func Calls(x *syntax.Index, name string) []*ast.CallExpr {
	var out []*ast.CallExpr
	for _, f := range x.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok && id.Name == name {
					out = append(out, c)
				}
			}
			return true
		})
	}
	return out
}

// ConstString is the constant string value of e.
func ConstString(x *syntax.Index, e ast.Expr) string {
	return constant.StringVal(x.TypesInfo.Types[e].Value)
}
