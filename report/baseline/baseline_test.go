package baseline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

func finding(rule rules.ID, file string, line int, src string) report.Finding {
	return report.Finding{Rule: rule, Message: string(rule) + " message", Pos: &report.Position{File: file, Line: line, Col: 2}, Source: src}
}

func TestRoundTripAndApply(t *testing.T) {
	old := report.New("vet", "test")
	old.Findings = []report.Finding{
		finding("LA103", "a/lock.go", 10, `rdb.Del(ctx, "lock:job")`),
		finding("LA108", "a/lock.go", 20, `rdb.Do(ctx, "DELIFEQ", k, tok)`),
		{Rule: "LA201", Node: "10.0.0.7:6379", Message: "node finding"},
	}
	old.Findings[1].Suppressed = &report.Suppression{Kind: "inSource", Justification: "x"}
	var buf bytes.Buffer
	if err := FromRun(old).Write(&buf); err != nil {
		t.Fatal(err)
	}
	b, err := Parse("base.json", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Findings) != 1 || b.Findings[0].Rule != "LA103" {
		t.Fatalf("baseline holds %+v; want only the active code finding", b.Findings)
	}

	// Later: the baselined line moved (code inserted above) and was
	// re-indented; a second identical DEL and a new rule appeared.
	cur := report.New("vet", "test")
	cur.Findings = []report.Finding{
		finding("LA103", "a/lock.go", 14, "\t\trdb.Del(ctx,   \"lock:job\")"),
		finding("LA103", "a/lock.go", 30, `rdb.Del(ctx, "lock:job")`),
		finding("LA106", "a/lock.go", 40, `rdb.SetNX(ctx, "lock:x", tok, 0)`),
		finding("LA103", "b/other.go", 14, `rdb.Del(ctx, "lock:job")`),
	}
	b.Apply(cur, "base.json")
	var active []string
	for _, f := range cur.Active() {
		active = append(active, f.Pos.String()+" "+string(f.Rule))
	}
	want := "a/lock.go:30:2 LA103\na/lock.go:40:2 LA106\nb/other.go:14:2 LA103"
	if got := strings.Join(active, "\n"); got != want {
		t.Errorf("active after baseline:\n%s\nwant:\n%s", got, want)
	}
	if s := cur.Findings[0].Suppressed; s == nil || s.Kind != "external" || !strings.Contains(s.Justification, "base.json") {
		t.Errorf("baselined finding suppression = %+v", s)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`{"version": 2, "tool": "lockaudit", "findings": []}`, "baseline version 2"},
		{`{"version": 1, "tool": "lockaudit", "findings": [{"rule": "LA103"}]}`, "finding 1 lacks rule, file or hash"},
		// Another tool's file (or one that names none) is not taken for
		// a lockaudit baseline: its entries would hide findings.
		{`{"version": 1, "tool": "other", "findings": [{"rule": "LA103", "file": "a.go", "hash": "h"}]}`, `b.json: tool "other", not a lockaudit baseline`},
		{`{"version": 1, "findings": []}`, `b.json: tool "", not a lockaudit baseline`},
		{"{\"version\": 1,\n \"extra\": true}", `b.json: not a lockaudit baseline: line 2, column 2: unknown field "extra"`},
		{`[1,2]`, "not a lockaudit baseline"},
		// Data after the baseline (two files pasted together, a stray
		// brace) is an error, not silently ignored.
		{"{\"version\": 1, \"tool\": \"lockaudit\", \"findings\": []}\n{\"version\": 1}\n", "b.json: not a lockaudit baseline: line 2, column 1: more data after the end of the value"},
		{`{"version": 1, "tool": "lockaudit", "findings": []}}`, "line 1, column 52: more data after"},
		{"{\"version\": 1,\n \"findings\": [{\"rule\": 103}]}", "line 2, column 27: findings[0].rule: want string, got JSON number"},
	} {
		if _, err := Parse("b.json", []byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "b.json") {
			t.Errorf("Parse(%s) error = %v, want %q", tc.src, err, tc.want)
		}
	}
}
