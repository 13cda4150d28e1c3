package probe

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

func TestDecide(t *testing.T) {
	v91, v81, r70 := ver(t, "valkey-9.1.2"), ver(t, "valkey-8.1.1"), ver(t, "redis-7.0.15")
	all := map[string]bool{"delifeq": true, "delex": false, "eval": true}
	old := map[string]bool{"delifeq": false, "delex": false, "eval": true}
	lua := &scripting{present: true, engines: 1, names: []string{"LUA"}}
	noLua := &scripting{present: true, engines: 0}
	absent := &scripting{}
	ifeq := []string{"NX", "XX", "IFEQ"}
	for _, tt := range []struct {
		name                          string
		v                             rules.Version
		o                             observed
		failed                        []Fact
		delifeq, delex, setIFEQ, luaA report.Answer
	}{
		{"9.1 read fully", v91, observed{commands: all, setTokens: ifeq, docsRead: true, scripting: lua}, nil,
			report.Yes, report.No, report.Yes, report.Yes},
		{"8.1 read fully", v81, observed{commands: old, setTokens: ifeq, docsRead: true, scripting: absent}, nil,
			report.No, report.No, report.Yes, report.Yes},
		{"Redis 7.0 read fully", r70, observed{commands: old, setTokens: []string{"NX", "XX"}, docsRead: true, scripting: absent}, nil,
			report.No, report.No, report.No, report.Yes},
		{"9.1 without Lua", v91, observed{commands: all, setTokens: ifeq, docsRead: true, scripting: noLua}, nil,
			report.Yes, report.No, report.Yes, report.No},
		{"EVAL renamed", v81, observed{commands: map[string]bool{"eval": false}, setTokens: ifeq, docsRead: true, scripting: absent}, nil,
			report.No, report.No, report.Yes, report.No},
		// COMMAND INFO blocked: a version can say no, never yes.
		{"COMMAND INFO blocked on 8.1", v81, observed{setTokens: ifeq, docsRead: true, scripting: absent}, []Fact{FactCommands},
			report.No, report.No, report.Yes, report.Unknown},
		{"COMMAND INFO blocked on 9.1", v91, observed{setTokens: ifeq, docsRead: true, scripting: lua}, []Fact{FactCommands},
			report.Unknown, report.No, report.Yes, report.Unknown},
		// COMMAND DOCS blocked: IFEQ (an option) falls back to the version.
		{"COMMAND DOCS blocked on 9.1", v91, observed{commands: all, scripting: lua}, []Fact{FactSetDocs},
			report.Yes, report.No, report.Yes, report.Yes},
		{"COMMAND DOCS blocked on 8.0", ver(t, "valkey-8.0.1"), observed{commands: old, scripting: absent}, []Fact{FactSetDocs},
			report.No, report.No, report.No, report.Yes},
		{"INFO scriptingengines unreadable on 9.1", v91, observed{commands: all, setTokens: ifeq, docsRead: true}, []Fact{FactLua},
			report.Yes, report.No, report.Yes, report.Unknown},
		{"9.1 without the section is contradictory", v91, observed{commands: all, setTokens: ifeq, docsRead: true, scripting: absent}, nil,
			report.Yes, report.No, report.Yes, report.Unknown},
		{"nothing but COMMAND INFO", rules.Version{}, observed{commands: all}, []Fact{FactServer, FactSetDocs, FactLua}, report.Yes, report.No, report.Unknown, report.Unknown},
		{"nothing at all", rules.Version{}, observed{}, []Fact{FactServer, FactCommands, FactSetDocs, FactLua}, report.Unknown, report.Unknown, report.Unknown, report.Unknown},
	} {
		f := newFacts("n:1")
		for _, fact := range tt.failed {
			f.Errors = append(f.Errors, FactError{Fact: fact, Command: string(fact), Reason: "NOPERM test"})
		}
		f.Version, f.seen = tt.v, tt.o
		a := decide(f)
		got := [4]report.Answer{a[rules.UseDELIFEQ].answer, a[rules.UseDELEX].answer, a[rules.UseIFEQ].answer, a[rules.UseLua].answer}
		if want := [4]report.Answer{tt.delifeq, tt.delex, tt.setIFEQ, tt.luaA}; got != want {
			t.Errorf("%s: delifeq delex set_ifeq lua %v; want %v\n  why: %v", tt.name, got, want, a)
		}
		for _, c := range rules.Commands() {
			if a[c].why.Kind == 0 {
				t.Errorf("%s: no reason for %s", tt.name, c)
			}
		}
	}
}

func TestCheckReadOnly(t *testing.T) {
	ok := [][]string{
		{"PING"}, {"INFO", "server"}, {"info"}, {"ROLE"}, {"TIME"},
		commandInfo, {"COMMAND", "DOCS", "SET"}, {"command", "count"},
		append([]string{"CONFIG", "GET"}, configParams...),
		{"CLUSTER", "SHARDS"}, {"cluster", "nodes"}, {"CLIENT", "SETNAME", "x"},
		{"SENTINEL", "MASTERS"}, {"SENTINEL", "REPLICAS", "m"}, {"SENTINEL", "SENTINELS", "m"},
	}
	for _, args := range ok {
		if err := checkReadOnly(args); err != nil {
			t.Errorf("%v refused: %v", args, err)
		}
	}
	refused := [][]string{
		{}, {"SET", "k", "v"}, {"DEL", "k"}, {"DELIFEQ", "k", "v"}, {"EVAL", "return 1", "0"}, {"FLUSHALL"},
		{"CONFIG", "SET", "appendonly", "yes"}, {"CONFIG", "GET", "*"}, {"CONFIG", "GET", "masterauth"},
		{"CONFIG", "GET", "requirepass"}, {"CONFIG", "GET", "*pass*"}, {"CONFIG", "GET"}, {"CONFIG", "REWRITE"},
		{"CLUSTER", "FAILOVER"}, {"CLUSTER", "RESET"}, {"CLUSTER"}, {"SENTINEL", "FAILOVER", "m"},
		{"SENTINEL", "SET", "m", "x", "y"}, {"SENTINEL", "CONFIG", "GET", "*"}, {"MODULE", "UNLOAD", "lua"},
		{"CLIENT", "KILL", "ID", "1"}, {"CLIENT", "SETINFO", "LIB-NAME", "x"}, {"DEBUG", "SLEEP", "1"},
		{"REPLICAOF", "NO", "ONE"}, {"SHUTDOWN"}, {"ACL", "SETUSER", "x"}, {"COMMAND", "GETKEYS", "SET", "k"},
		{"MONITOR"}, {"SUBSCRIBE", "c"}, {"PUBLISH", "c", "m"}, {"SCRIPT", "LOAD", "x"}, {"FUNCTION", "FLUSH"},
		{"CONFIG", "RESETSTAT"}, {"CLIENT", "PAUSE", "1000"}, {"CLIENT", "NO-EVICT", "on"}, {"CLUSTER", "FORGET", "id"},
		{"CLUSTER", "MEET", "127.0.0.1", "1"}, {"CLUSTER", "REPLICATE", "id"}, {"CLUSTER", "SETSLOT", "1", "NODE", "id"},
		{"CLUSTER", "ADDSLOTS", "1"}, {"CLUSTER", "SAVECONFIG"}, {"SENTINEL", "RESET", "*"}, {"SENTINEL", "REMOVE", "m"},
		{"SENTINEL", "MONITOR", "m", "127.0.0.1", "1", "1"}, {"SENTINEL", "FLUSHCONFIG"}, {"SENTINEL", "CKQUORUM", "m"},
		{"SLOWLOG", "RESET"}, {"LATENCY", "RESET"}, {"MEMORY", "PURGE"}, {"SCRIPT", "FLUSH"}, {"SAVE"}, {"BGSAVE"},
		{"BGREWRITEAOF"}, {"FAILOVER"}, {"SWAPDB", "0", "1"}, {"SELECT", "1"}, {"HELLO", "3"}, {"AUTH", "x"},
	}
	for _, args := range refused {
		if err := checkReadOnly(args); err == nil {
			t.Errorf("%v allowed", args)
		}
	}
}

// TestOneSender checks that valkey-go's client is used in one file only,
// and that sendAll is the only function that sends with it: every command
// passes the allowlist.
func TestOneSender(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if strings.Contains(imp.Path.Value, "valkey-go") && name != "conn.go" {
				t.Errorf("%s imports valkey-go; only conn.go may", name)
			}
		}
	}
	f, err := parser.ParseFile(fset, "conn.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		ast.Inspect(fn, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch sel.Sel.Name {
			case "Do", "DoMulti", "DoCache", "DoMultiCache", "DoStream", "DoMultiStream", "Receive", "Dedicated", "Dedicate", "B":
				if fn.Name.Name != "sendAll" {
					t.Errorf("conn.go: %s calls %s; only sendAll may send commands", fn.Name.Name, sel.Sel.Name)
				}
			}
			return true
		})
	}
}
