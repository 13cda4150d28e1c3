package render_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lockaudit/lockaudit/internal/safetext"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
)

// controlRun is a run as a hostile server, file name or source literal
// would make it: control sequences in a server's error and CONFIG value, a
// node address, a file name, a source line, a verdict reason.
func controlRun() *report.Run {
	r := report.New("audit", "v0.0.0-test")
	r.Findings = []report.Finding{
		{Rule: "LA103", Severity: rules.Error, Message: "plain DEL of \"lock:\x1b[2J\"", Pos: &report.Position{File: "evil\x1b]0;SAFE\x07.go", Line: 3, Col: 2}, Source: "\trdb.Del(ctx, \"lock:\x1b[2J\")"},
		{Rule: "LA208", Severity: rules.Warning, Message: "connection: ERR \x1b[1A\rSAFE", Node: "127.0.0.1:7001"},
		{Rule: "LA101", Severity: rules.Warning, Message: "owner check \u202eKCOL\u202c, \u2066isolate\u2069, \u200fmark, NEL\u0085, DEL\x7f", Pos: &report.Position{File: "rtl\u202eog.go", Line: 4, Col: 1}, Source: "x := \"\u202e\u0085\x7f\""},
	}
	r.Errors = []report.Error{{Where: "127.0.0.1:7001", Message: "could not be probed: -ERR \x1b]0;SAFE\x07\rSAFE\nsecond line"}}
	r.Uses = []report.Use{{Command: rules.UseDELIFEQ, Sites: []report.Site{{Pos: report.Position{File: "evil\x1b]0;SAFE\x07.go", Line: 9, Col: 2}, What: "DELIFEQ release"}}}}
	r.Topology = "replication"
	r.Nodes = []report.Node{{Addr: "127.0.0.1:7001", Role: "primary", Promotable: report.PromotableYes, Server: "valkey", Version: "9.1.2", Lua: report.Yes, DELIFEQ: report.Yes, DELEX: report.No, SetIFEQ: report.Yes,
		Config: map[string]string{"maxmemory-policy": "\x1b[32mnoeviction\x1b[0m"}, Errors: []string{"CONFIG GET: ERR \x1b]0;SAFE\x07"},
		Notes: []string{"note \r\x1b[K"}, Evidence: []report.Evidence{{Command: "INFO server", Answer: "valkey_version:9.1.2\r\x1b[2K"}}}}
	r.Verdict = report.NewVerdict()
	r.Verdict.Paths[rules.NativeExtend].Safe, r.Verdict.Paths[rules.LuaScripts].Safe = report.Yes, report.Yes
	r.Verdict.Paths[rules.NativeRelease].Checks = []report.Check{{Command: rules.UseDELIFEQ, ReliedOn: true, Nodes: 1,
		Reasons: []report.Reason{{Kind: report.Unread, Node: report.NodeRef{Addr: "127.0.0.1:7001", Role: "primary"}, Evidence: report.AnswerSource{Kind: report.SourceCommandInfoFailed, Error: "ERR \x1b[2J\rSAFE"}}}}}
	return r
}

// TestTerminalFormatsEscape: text and Markdown never carry a raw control
// byte from the run (only their own newlines), and show the escaped form;
// JSON and SARIF keep the exact strings (their encoders escape them).
func TestTerminalFormatsEscape(t *testing.T) {
	r := controlRun()
	for _, format := range []string{"text", "markdown"} {
		var buf bytes.Buffer
		if err := render.Render(&buf, r, format); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if i := strings.IndexFunc(out, func(c rune) bool { return c != '\n' && safetext.Unsafe(c) || c == '\uFFFD' }); i >= 0 {
			t.Errorf("%s: raw control character %q at byte %d:\n%s", format, out[i:i+1], i, out)
		}
		for _, want := range []string{`\x1b]0;SAFE\a`, `\x1b[2J`, `\rSAFE`} {
			// Markdown escapes the backslash (\\x1b renders as \x1b).
			if !strings.Contains(out, want) && !strings.Contains(out, strings.ReplaceAll(want, `\`, `\\`)) {
				t.Errorf("%s lacks the escaped %q:\n%s", format, want, out)
			}
		}
	}
	for _, format := range []string{"json", "sarif"} {
		var buf bytes.Buffer
		if err := render.Render(&buf, r, format); err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsAny(buf.Bytes(), "\x1b\r\a") {
			t.Errorf("%s holds a raw control byte", format)
		}
		if !bytes.Contains(buf.Bytes(), []byte(`\u001b]0;SAFE\u0007`)) {
			t.Errorf("%s does not keep the exact string (JSON-escaped)", format)
		}
	}
	var stderr bytes.Buffer
	render.WriteErrors(&stderr, r.Errors)
	if got := stderr.String(); got != "# 127.0.0.1:7001\ncould not be probed: -ERR \\x1b]0;SAFE\\a\\rSAFE\nsecond line\n" {
		t.Errorf("WriteErrors: %q", got)
	}
	if got := report.Summary(r); strings.ContainsAny(got, "\x1b\r\a") || !strings.Contains(got, `\x1b]0;SAFE\a\rSAFE`) {
		t.Errorf("Summary: %q", got)
	}
}

// rawUnsafe returns the first character of out that Escape would escape,
// other than the formats' own newlines and tabs, or "".
func rawUnsafe(out string) string {
	for _, c := range out {
		if c != '\n' && c != '\t' && safetext.Unsafe(c) || c == utf8.RuneError {
			return fmt.Sprintf("%U", c)
		}
	}
	return ""
}

// TestEveryFormatEscapesControlAndBidi: no report of a run (or of a
// comparison) carries a raw ESC, CR, C1, DEL or bidi control from it.
// Text, Markdown and HTML show each as a visible escape (\x1b, \u202e);
// JSON and SARIF keep the exact string, written with \u escapes.
func TestEveryFormatEscapesControlAndBidi(t *testing.T) {
	r := controlRun()
	old := controlRun()
	old.Findings = old.Findings[:1]
	c := report.Compare(old, r)
	for _, format := range render.Formats() {
		var run, cmp bytes.Buffer
		if err := render.Render(&run, r, format); err != nil {
			t.Fatal(err)
		}
		if err := render.RenderComparison(&cmp, c, report.Tool{Name: "lockaudit", Version: "v0.0.0-test"}, format); err != nil {
			t.Fatal(err)
		}
		for what, out := range map[string]string{"run": run.String(), "comparison": cmp.String()} {
			if bad := rawUnsafe(out); bad != "" {
				t.Errorf("%s of a %s holds a raw %s", format, what, bad)
			}
			var want []string
			switch format {
			case "json", "sarif":
				want = []string{`\u202eKCOL\u202c`, `\u2066isolate\u2069`, `\u200fmark`, `NEL\u0085`, `DEL\u007f`}
			case "markdown":
				want = []string{`\\u202eKCOL\\u202c`, `\\u2066isolate\\u2069`, `\\x7f`}
			default:
				want = []string{`\u202eKCOL\u202c`, `\u2066isolate\u2069`, `\u200fmark`, `NEL\u0085`, `DEL\x7f`}
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("%s of a %s lacks %s", format, what, w)
				}
			}
		}
	}
	// JSON still reads back as the exact strings.
	var buf bytes.Buffer
	if err := render.Render(&buf, r, "json"); err != nil {
		t.Fatal(err)
	}
	var back struct{ Findings []report.Finding }
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.Findings[2].Message != r.Findings[2].Message {
		t.Errorf("JSON does not keep the exact message: %v %q", err, back.Findings[2].Message)
	}
}
