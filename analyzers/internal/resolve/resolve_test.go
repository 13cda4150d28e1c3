package resolve_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
)

// summary is a test-only analyzer: it reports a one-line summary of every
// Op the layer resolved, at the Op's Pos, so fixtures state with
// // want lines exactly what the layer sees. Lines use \Q...\E to match
// literally.
var summary = &analysis.Analyzer{
	Name:             "opsummary",
	Doc:              "report every resolved Op (test only)",
	Requires:         []*analysis.Analyzer{resolve.Analyzer},
	RunDespiteErrors: true,
	Run: func(pass *analysis.Pass) (any, error) {
		for _, op := range pass.ResultOf[resolve.Analyzer].(*resolve.Result).Ops {
			pass.Reportf(op.Pos, "%s", Summary(pass.Fset, op))
		}
		return nil, nil
	},
}

// wrappers is summary plus a line for every wrapper the layer summarised
// ("wrapper Name: <Summary>"), at the wrapper's name.
var wrappers = &analysis.Analyzer{
	Name:             "wrappersummary",
	Doc:              "report every resolved Op and wrapper (test only)",
	Requires:         []*analysis.Analyzer{resolve.Analyzer},
	RunDespiteErrors: true,
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[resolve.Analyzer].(*resolve.Result)
		for _, op := range res.Ops {
			in := ""
			if w := op.InWrapper; w != nil {
				var parts []string
				for _, p := range []struct {
					bit  resolve.Passed
					name string
				}{{resolve.PassedKey, "key"}, {resolve.PassedValue, "value"}, {resolve.PassedTTL, "ttl"}, {resolve.PassedScript, "script"}, {resolve.PassedArgv, "argv"}} {
					if op.ForCallers(p.bit) {
						parts = append(parts, p.name)
					}
				}
				in = fmt.Sprintf(" in=%s(%s)", w.Func.Name(), strings.Join(parts, ","))
			}
			pass.Reportf(op.Pos, "%s%s", Summary(pass.Fset, op), in)
		}
		for fn, s := range res.Wrappers {
			pass.Reportf(fn.Pos(), "wrapper %s: %s", fn.Name(), s)
		}
		return nil, nil
	},
}

// Summary renders an Op on one line:
//
//	SET key=k value=v NX ttl=expire(ttl) tx=multi@12 client=go-redis/v9
func Summary(fset *token.FileSet, op *resolve.Op) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	ex := func(es ...ast.Expr) string {
		var s []string
		for _, e := range es {
			s = append(s, types.ExprString(e))
		}
		return strings.Join(s, ",")
	}
	switch op.Kind {
	case resolve.ScriptDef:
		w("SCRIPTDEF")
	case resolve.Library:
		w("LIB %s.%s step=%s", op.Client.Name, op.Method, op.Step)
	default:
		w("%s", op.Name)
	}
	if len(op.Keys) > 0 {
		w(" key=%s", ex(op.Keys...))
	}
	if op.Value != nil {
		w(" value=%s", ex(op.Value))
	}
	if op.Match != nil {
		w(" match=%s", ex(op.Match))
	}
	if op.Cond != "" {
		w(" cond=%s", op.Cond)
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{op.NX, "NX"}, {op.XX, "XX"}, {op.Name == "SET" && op.Cond == "IFEQ", "IFEQ"}, {op.GET, "GET"}} {
		if f.on {
			w(" %s", f.name)
		}
	}
	if op.Kind == resolve.Command && op.Name == "SET" {
		w(" ttl=%s", [...]string{"none", "expire", "keepttl", "unknown"}[op.TTL])
	}
	if op.TTLExpr != nil {
		w(" ttlexpr=%s", ex(op.TTLExpr))
	}
	if !op.Complete {
		w(" incomplete")
	}
	if op.Script != nil {
		switch {
		case op.Script.Foreign:
			w(" script=%s@%s", op.Script.Steps, op.Script.Source)
		default:
			w(" script=%s", lua.Classify(op.Script.Text))
		}
		switch {
		case op.Script.Foreign:
		case op.Script.Inline:
			w("(inline)")
		case op.Kind == resolve.Command:
			w("@%s", rel(fset, op.Pos, op.Script.Pos))
		}
	}
	if op.Tx != nil {
		w(" tx=%s@%s", map[resolve.TxKind]string{resolve.Multi: "multi", resolve.Pipeline: "pipeline"}[op.Tx.Kind], rel(fset, op.Pos, op.Tx.Pos))
		if op.Tx.MaybeMulti {
			w("?")
		}
	}
	w(" client=%s", op.Client.Name)
	if op.Via != nil {
		w(" via=%s", op.Via.Func.Name())
	}
	return b.String()
}

// rel prints the line of to relative to the line of from: "+2", "-70", "0".
func rel(fset *token.FileSet, from, to token.Pos) string {
	d := fset.Position(to).Line - fset.Position(from).Line
	if d > 0 {
		return fmt.Sprintf("+%d", d)
	}
	return fmt.Sprint(d)
}

// libscan is the module that requires the real clients (testdata/libscan
// at the repository's root).
func libscan(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "libscan"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGoRedis(t *testing.T) {
	analyzertest.Run(t, summary, nil, "resolvetest/goredis")
}

func TestRedigo(t *testing.T) {
	analyzertest.Run(t, summary, nil, "resolvetest/redigo")
}

func TestValkeyGo(t *testing.T) {
	analyzertest.Run(t, summary, nil, "resolvetest/valkeygo")
}

func TestGlide(t *testing.T) {
	analyzertest.Run(t, summary, nil, "resolvetest/glide")
}

func TestRadix(t *testing.T) {
	analyzertest.Run(t, summary, nil, "resolvetest/radix")
}

func TestGoZero(t *testing.T) {
	analyzertest.Run(t, summary, nil, "resolvetest/gozero")
}

func TestOtherClients(t *testing.T) {
	analyzertest.Run(t, summary, nil, "resolvetest/others")
}

// TestPort: a library's own client interface, implemented by adapters out
// of view, sends the commands its methods mirror by name and parameters.
func TestPort(t *testing.T) {
	analyzertest.Run(t, summary, nil, "resolvetest/port")
}

// TestFuncValue: commands sent through a function value shaped like
// redigo's Do, whose command name is a constant.
func TestFuncValue(t *testing.T) {
	analyzertest.Run(t, summary, nil, "resolvetest/funcvalue")
}

// TestRealClients runs the layer over code that calls the real client
// modules (testdata/libscan/clients), so the stubs cannot drift from the
// receiver shapes of go-redis v9.23.0, valkey-go v1.0.79, redigo v1.9.3,
// redsync v4.18.1, bsm/redislock v0.9.4, go-zero v1.10.3, radix v3.8.0
// and v4.1.4 and valkey-glide v2.5.1 unnoticed. Glide's package is cgo:
// loading it runs cgo on its lib.h, so the test needs a C compiler.
func TestRealClients(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the real modules (module cache or proxy)")
	}
	dir := libscan(t)
	// analysistest loads modules with GOPROXY=off: fetch them first.
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod download in %s: %v\n%s", dir, err, out)
	}
	analysistest.Run(t, dir, summary, "lockaudit.test/libscan/clients")
}

// TestBrokenCode runs the layer over a package that does not compile (wrong
// argument counts, undefined names, self-assignments): the analyzer runs
// despite errors and must neither panic nor loop; the Ops it can still see
// are resolved.
func TestBrokenCode(t *testing.T) {
	root := analyzertest.Dir(t)
	cfg := &packages.Config{
		Mode: packages.LoadSyntax,
		Dir:  root,
		Env:  append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, "resolvetest/broken")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) == 0 {
		t.Fatalf("want one package with type errors, got %d packages", len(pkgs))
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{summary}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for act := range graph.All() {
		if act.Err != nil {
			t.Errorf("%s: %v", act.Analyzer.Name, act.Err)
		}
		if act.IsRoot {
			for _, d := range act.Diagnostics {
				got = append(got, fmt.Sprintf("%d: %s", act.Package.Fset.Position(d.Pos).Line, d.Message))
			}
		}
	}
	// Wrong arity makes an Op incomplete; a variable assigned several
	// chains gives one incomplete Op per chain, aliases add none.
	want := []string{
		`17: SET NX ttl=unknown incomplete client=go-redis/v9`,
		`18: SET key="k" ttl=unknown incomplete client=go-redis/v9`,
		`19: EVAL incomplete client=go-redis/v9`,
		`22: EVALSHA incomplete client=go-redis/v9`,
		`22: SCRIPTDEF incomplete client=go-redis/v9`,
		`26: SET key="v" ttl=unknown incomplete client=valkey-go`,
		`27: SET key="k" ttl=unknown incomplete client=glide`,
		`28: SET key="k" value="v" cond=IFEQ IFEQ ttl=unknown incomplete client=glide`,
		`30: EVALSHA incomplete client=glide`,
		`33: SCRIPTDEF incomplete client=redigo`,
		`45: SET key="k" value="v" ttl=unknown incomplete client=valkey-go`,
		`46: SET key="k" value="v" ttl=unknown incomplete client=valkey-go`,
		`47: SET key="k" value="v" ttl=unknown incomplete tx=pipeline@0 client=valkey-go`,
		`47: SET key="k" value="v" ttl=unknown incomplete tx=pipeline@0 client=valkey-go`,
		`51: SET key="lock:a" value="t" NX ttl=none client=go-redis/v9`,
		`52: SET key="k" value="v" NX ttl=none client=valkey-go`,
		`57: DEL incomplete client=go-redis/v9`,
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("Ops:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestWrappers: calls of the package's own wrappers (a script
// constructor, a script run, an EVAL, a release helper, a SETNX whose TTL
// is a parameter, an interface whose implementations forward) resolve to
// the Ops the wrappers send, with the callers' arguments; so do calls of
// another package's wrappers, through its facts.
func TestWrappers(t *testing.T) {
	analyzertest.Run(t, wrappers, nil, "resolvetest/wrappers", "resolvetest/wrapuse")
}

// TestWrapperFacts states the Summary and Reaches facts the layer exports
// for another package's wrappers.
func TestWrapperFacts(t *testing.T) {
	analyzertest.Run(t, resolve.Analyzer, nil, "resolvetest/wraplib")
}

func TestScriptTextsAndVendor(t *testing.T) {
	analyzertest.Run(t, summary, nil, "resolvetest/embedded", "resolvetest/vendored")
}

// loadOps runs the layer over one fixture package and returns its Ops.
func loadOps(t *testing.T, pkg string) (*token.FileSet, []*resolve.Op) {
	t.Helper()
	root := analyzertest.Dir(t)
	cfg := &packages.Config{
		Mode: packages.LoadSyntax,
		Dir:  root,
		Env:  append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, pkg)
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("load: %v", err)
	}
	var ops []*resolve.Op
	probe := &analysis.Analyzer{
		Name:     "probe",
		Doc:      "collect Ops",
		Requires: []*analysis.Analyzer{resolve.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			ops = pass.ResultOf[resolve.Analyzer].(*resolve.Result).Ops
			return nil, nil
		},
	}
	if _, err := checker.Analyze([]*analysis.Analyzer{probe}, pkgs, nil); err != nil {
		t.Fatal(err)
	}
	return pkgs[0].Fset, ops
}

// TestOpContext checks the context fields: Stack runs from the file to
// Call, Func is the enclosing declaration, Lit the innermost literal.
func TestOpContext(t *testing.T) {
	fset, ops := loadOps(t, "resolvetest/goredis")
	var inCallback, scriptDef, plain bool
	for i, op := range ops {
		if i > 0 && ops[i-1].Pos > op.Pos {
			t.Errorf("Ops not in source order at %s", fset.Position(op.Pos))
		}
		if len(op.Stack) < 2 || op.Stack[len(op.Stack)-1] != op.Call {
			t.Fatalf("%s: Stack does not end at Call", fset.Position(op.Pos))
		}
		if _, ok := op.Stack[0].(*ast.File); !ok {
			t.Errorf("%s: Stack does not start at the file", fset.Position(op.Pos))
		}
		switch {
		case op.Name == "INCR" && op.Tx != nil && op.Lit != nil:
			inCallback = true
			if op.Func == nil || op.Func.Name.Name != "transactions" {
				t.Errorf("%s: Func = %v, want transactions", fset.Position(op.Pos), op.Func)
			}
		case op.Kind == resolve.ScriptDef && op.Func == nil:
			scriptDef = true
			if op.Lit != nil {
				t.Errorf("%s: package-level script has a Lit", fset.Position(op.Pos))
			}
		case op.Name == "WAITAOF":
			plain = true
			if op.Lit != nil || op.Func == nil || op.Func.Name.Name != "typedHelpers" {
				t.Errorf("%s: Func/Lit = %v/%v", fset.Position(op.Pos), op.Func, op.Lit)
			}
		}
	}
	if !inCallback || !scriptDef || !plain {
		t.Errorf("cases not seen: callback %v, package-level script %v, plain %v", inCallback, scriptDef, plain)
	}
}

// TestRawArgs checks Args of raw forms: the arguments after the command
// name, once, for every client that sends its name as an argument.
func TestRawArgs(t *testing.T) {
	want := map[string]map[int]string{ // package -> line -> Args
		"resolvetest/goredis": {
			65: `lockKey, token`,                    // Do(ctx, "delifeq", ...)
			66: `lockKey, token, "NX", "PX", 30000`, // Do(ctx, "SET", ...)
			73: `lockKey, token`,                    // Process(ctx, NewCmd(ctx, "delifeq", ...))
			75: `lockKey, token, "nx", "px", 1000`,  // Process(ctx, cmd)
		},
		"resolvetest/glide": {35: `key, token`},                 // CustomCommand(ctx, []string{"DELIFEQ", ...})
		"resolvetest/radix": {22: `key, token, "NX", "PX", ms`}, // FlatCmd(nil, "SET", ...)
	}
	for pkg, lines := range want {
		fset, ops := loadOps(t, pkg)
		got := map[int][]string{}
		for _, op := range ops {
			line := fset.Position(op.Pos).Line
			if _, ok := lines[line]; !ok {
				continue
			}
			var s []string
			for _, a := range op.Args {
				s = append(s, types.ExprString(a))
			}
			got[line] = append(got[line], strings.Join(s, ", "))
		}
		for line, w := range lines {
			if len(got[line]) != 1 || got[line][0] != w {
				t.Errorf("%s line %d: Args %q, want [%q]", pkg, line, got[line], w)
			}
		}
	}
}
