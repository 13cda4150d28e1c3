package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
)

// TestTextColor: with Options.Color the text report marks severities and
// verdict words with ANSI colours, never inside a table; without it (files,
// pipes, NO_COLOR) it has no escape at all, and the words are the same.
func TestTextColor(t *testing.T) {
	r := fixture.Full()
	var plain, color bytes.Buffer
	if err := render.RenderWith(&plain, r, "text", render.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := render.RenderWith(&color, r, "text", render.Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain.Bytes(), []byte("\033[")) {
		t.Errorf("the plain text report has an ANSI escape:\n%s", plain.String())
	}
	for _, want := range []string{
		"orders/lock.go:42:2: \033[31mLA103\033[0m plain DEL", // an error: red
		"orders/lua.go:9:18: \033[33mLA101\033[0m Lua",        // a warning: yellow
		"  LA201 \033[31merror  \033[0m 127.0.0.1:7002",       // a node error
		"Native release (DELIFEQ): \033[31mUNSAFE\033[0m",     // an unsafe verdict
	} {
		if !strings.Contains(color.String(), want) {
			t.Errorf("the coloured report lacks %q:\n%s", want, color.String())
		}
	}
	for _, l := range strings.Split(color.String(), "\n") {
		if strings.HasPrefix(l, "|") && strings.Contains(l, "\033[") {
			t.Errorf("colour inside a table: %q", l)
		}
	}
	strip := strings.NewReplacer("\033[31m", "", "\033[32m", "", "\033[33m", "", "\033[36m", "", "\033[0m", "")
	if strip.Replace(color.String()) != plain.String() {
		t.Error("the coloured report says something else than the plain one")
	}
}

// TestInfoFindingsOneLine: an info finding that several nodes share is
// one line naming the nodes, in the text report; warnings and errors stay
// one line per node.
func TestInfoFindingsOneLine(t *testing.T) {
	r := report.New("probe", "v0.0.0-test")
	for _, n := range []string{"10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.3:6379"} {
		r.Nodes = append(r.Nodes, report.Node{Addr: n, Role: "primary", Promotable: report.PromotableYes, Server: "valkey", Version: "9.1.2", Config: map[string]string{}, Errors: []string{}})
		r.Findings = append(r.Findings,
			report.Finding{Rule: "LA205", Severity: rules.Info, Node: n, Message: "Locks do not survive a restart: appendonly no"},
			report.Finding{Rule: "LA208", Severity: rules.Warning, Node: n, Message: "A fact could not be read"})
	}
	r.Findings = append(r.Findings, report.Finding{Rule: "LA205", Severity: rules.Info, Node: "10.0.0.3:6379", Message: "Locks do not survive a restart: appendonly yes, appendfsync no"})
	r.Sort()
	out := string(rendered(t, r, "text"))
	if want := "  LA205 info    10.0.0.1:6379, 10.0.0.2:6379, 10.0.0.3:6379  Locks do not survive a restart: appendonly no\n"; !strings.Contains(out, want) {
		t.Errorf("the shared info finding is not one line %q:\n%s", want, out)
	}
	if want := "  LA205 info    10.0.0.3:6379  Locks do not survive a restart: appendonly yes, appendfsync no\n"; !strings.Contains(out, want) {
		t.Errorf("an info finding with its own message lost its line:\n%s", out)
	}
	if n := strings.Count(out, "LA208 warning"); n != 3 {
		t.Errorf("%d LA208 lines, want one per node:\n%s", n, out)
	}
}

// TestConformTextFits120: conform's text report fits 120 columns (it was
// about 250: command, expected and reply side by side); the table keeps
// step, reply and status, and under it each step's command, what was
// expected and, when the table cut it, the whole reply.
func TestConformTextFits120(t *testing.T) {
	r := report.New("conform", "v0.0.0-test")
	long := "unknown command: not in this server (Valkey 9.2+, Redis 8.4+) and then some more words a server said"
	r.Conform = []report.ConformNode{{Node: "127.0.0.1:7001", Role: "primary", Server: "Valkey 9.1.2", Steps: []report.ConformStep{
		{Step: "acquire + fence while held", Command: "MULTI; SET lock2 token D NX PX 30000; INCR fence; PEXPIRE fence 30000; EXEC", Expected: "[nil, fence n+1, 1] (nil: not acquired; the fence still counts)", Got: "[nil, 2, 1]", Status: report.StepPass},
		{Step: "DELEX release", Command: "DELEX lock3 IFEQ token B / token A", Expected: "0, then 1", Got: long, Status: report.StepSkipped},
		{Step: "hostile", Command: "GET x", Expected: "a", Got: strings.Repeat("z", 300), Status: report.StepFail},
	}}}
	out := string(rendered(t, r, "text"))
	for i, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > 120 {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
	for _, want := range []string{
		"| 1 | acquire + fence while held |",
		"  1. MULTI; SET lock2 token D NX PX 30000; INCR fence; PEXPIRE fence 30000; EXEC: expected [nil, fence n+1, 1] (nil: not",
		"acquired; the fence still counts)",
		"; got unknown command: not in this server",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the conform report lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "z") < 300 {
		t.Errorf("the long reply was not shown whole under the table:\n%s", out)
	}
}
