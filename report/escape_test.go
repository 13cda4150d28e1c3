package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lockaudit/lockaudit/internal/safetext"
	"github.com/lockaudit/lockaudit/rules"
)

// needsEscape and unsafeRune are the checks Escape makes.
var needsEscape, unsafeRune = safetext.Needs, safetext.Unsafe

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, ünïcode → ok \\ kept", "plain text, ünïcode → ok \\ kept"},
		{"\x1b[2J\x1b[HSAFE", `\x1b[2J\x1b[HSAFE`},                  // clear screen, home
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\a`},                      // OSC: window title
		{"\x1b]8;;http://x\x1b\\link", `\x1b]8;;http://x\x1b\link`}, // OSC 8 hyperlink
		{"UNSAFE\rSAFE  ", `UNSAFE\rSAFE  `},                        // carriage return overwrites
		{"a\nVerdict: SAFE", `a\nVerdict: SAFE`},                    // a forged line
		{"tab\there", `tab\there`},
		{"\x9b2J", `\x9b2J`},               // C1 CSI
		{"del\x7f", `del\x7f`},             // DEL
		{"bad \xff byte", `bad \xff byte`}, // not UTF-8
		{"abc\u202edcba", `abc\u202edcba`}, // right-to-left override
		{"\u2066x\u2069", `\u2066x\u2069`}, // isolates
	} {
		got := Escape(tc.in)
		if got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if again := Escape(got); again != got {
			t.Errorf("escaping twice changes %q to %q", got, again)
		}
	}
	if got := EscapeLines("first\x1b[2J\nsecond\r"); got != "first\\x1b[2J\nsecond\\r" {
		t.Errorf("EscapeLines: %q", got)
	}
}

const hostile = "\x1b]0;SAFE\x07\x1b[2J\rSAFE\nVerdict: SAFE\u202e\xff"

// fillStrings sets every string (and map key and value) reachable from v
// to hostile, and gives every nil pointer, slice and map one element, so
// a field added to Run later is covered without editing this test.
func fillStrings(v reflect.Value) { fillStringsWith(v, hostile) }

func fillStringsWith(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillStringsWith(v.Elem(), s)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fillStringsWith(v.Field(i), s)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		}
		for i := 0; i < v.Len(); i++ {
			fillStringsWith(v.Index(i), s)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillStringsWith(k, s)
		fillStringsWith(e, s)
		m.SetMapIndex(k, e)
		v.Set(m)
	}
}

// stringsWith lists the strings reachable from v that contain sub.
func stringsWith(v reflect.Value, path, sub string, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		if strings.Contains(v.String(), sub) {
			*out = append(*out, path)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			stringsWith(v.Elem(), path, sub, out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				stringsWith(v.Field(i), path+"."+v.Type().Field(i).Name, sub, out)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			stringsWith(v.Index(i), path+"[]", sub, out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			stringsWith(k, path+"{key}", sub, out)
			stringsWith(v.MapIndex(k), path+"{value}", sub, out)
		}
	}
}

// TestRedactCoversEveryString: Redact takes the secret out of every string
// of a run (the walk escaping uses), in a copy, and every report of the
// copy is free of it.
func TestRedactCoversEveryString(t *testing.T) {
	const secret = "hunter2-secret"
	var r Run
	fillStringsWith(reflect.ValueOf(&r).Elem(), "LOCKAUDIT_PASSWORD="+secret+"\x00next line")
	var before []string
	stringsWith(reflect.ValueOf(&r).Elem(), "Run", secret, &before)
	if len(before) < 40 {
		t.Fatalf("the run has only %d strings with the secret: %v", len(before), before)
	}
	red := r.Redact(func(s string) string { return strings.ReplaceAll(s, secret, "[redacted]") })
	var left []string
	stringsWith(reflect.ValueOf(red).Elem(), "Run", secret, &left)
	if len(left) > 0 {
		t.Errorf("not redacted: %s", strings.Join(left, ", "))
	}
	var after []string
	stringsWith(reflect.ValueOf(&r).Elem(), "Run", secret, &after)
	if !slices.Equal(before, after) {
		t.Error("Redact changed the run it copied")
	}
}

// unsafeStrings lists the strings reachable from v that hold a character
// Escape would escape.
func unsafeStrings(v reflect.Value, path string, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if path == "Run.Errors[].Message" || path == "Run.Engagement.Notes" {
			s = strings.ReplaceAll(s, "\n", "") // a multi-line error keeps its lines (EscapeLines)
		}
		if needsEscape(s) {
			*out = append(*out, path)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			unsafeStrings(v.Elem(), path, out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				unsafeStrings(v.Field(i), path+"."+v.Type().Field(i).Name, out)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			unsafeStrings(v.Index(i), path+"[]", out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			unsafeStrings(k, path+"{key}", out)
			unsafeStrings(v.MapIndex(k), path+"{value}", out)
		}
	}
}

// TestEscapedCoversEveryString: the copy the terminal formats print has no
// raw control character in any field, and the run itself is untouched.
func TestEscapedCoversEveryString(t *testing.T) {
	var r Run
	fillStrings(reflect.ValueOf(&r).Elem())
	var before []string
	unsafeStrings(reflect.ValueOf(&r).Elem(), "Run", &before)
	if len(before) < 40 {
		t.Fatalf("the hostile run has only %d strings to escape: %v", len(before), before)
	}
	var left []string
	unsafeStrings(reflect.ValueOf(r.escaped()).Elem(), "Run", &left)
	if len(left) > 0 {
		t.Errorf("not escaped: %s", strings.Join(left, ", "))
	}
	var after []string
	unsafeStrings(reflect.ValueOf(&r).Elem(), "Run", &after)
	if !slices.Equal(before, after) {
		t.Error("escaped changed the run it copied")
	}
}

// hostileRun is a run as a hostile server, file name or source literal
// would make it: control sequences in a server's error and CONFIG value, a
// node address, a file name, a source line, a verdict reason.
func hostileRun() *Run {
	r := New("audit", "v0.0.0-test")
	r.Findings = []Finding{
		{Rule: "LA103", Severity: rules.Error, Message: "plain DEL of \"lock:\x1b[2J\"", Pos: &Position{File: "evil\x1b]0;SAFE\x07.go", Line: 3, Col: 2}, Source: "\trdb.Del(ctx, \"lock:\x1b[2J\")"},
		{Rule: "LA208", Severity: rules.Warning, Message: "connection: ERR \x1b[1A\rSAFE", Node: "127.0.0.1:7001"},
		{Rule: "LA101", Severity: rules.Warning, Message: "owner check \u202eKCOL\u202c, \u2066isolate\u2069, \u200fmark, NEL\u0085, DEL\x7f", Pos: &Position{File: "rtl\u202eog.go", Line: 4, Col: 1}, Source: "x := \"\u202e\u0085\x7f\""},
	}
	r.Errors = []Error{{Where: "127.0.0.1:7001", Message: "could not be probed: -ERR \x1b]0;SAFE\x07\rSAFE\nsecond line"}}
	r.Uses = []Use{{Command: rules.UseDELIFEQ, Sites: []Site{{Pos: Position{File: "evil\x1b]0;SAFE\x07.go", Line: 9, Col: 2}, What: "DELIFEQ release"}}}}
	r.Topology = "replication"
	r.Nodes = []Node{{Addr: "127.0.0.1:7001", Role: "primary", Promotable: PromotableYes, Server: "valkey", Version: "9.1.2", Lua: Yes, DELIFEQ: Yes, DELEX: No, SetIFEQ: Yes,
		Config: map[string]string{"maxmemory-policy": "\x1b[32mnoeviction\x1b[0m"}, Errors: []string{"CONFIG GET: ERR \x1b]0;SAFE\x07"},
		Notes: []string{"note \r\x1b[K"}, Evidence: []Evidence{{Command: "INFO server", Answer: "valkey_version:9.1.2\r\x1b[2K"}}}}
	r.Verdict = NewVerdict()
	r.Verdict.Paths[rules.NativeExtend].Safe, r.Verdict.Paths[rules.LuaScripts].Safe = Yes, Yes
	r.Verdict.Paths[rules.NativeRelease].Checks = []Check{{Command: rules.UseDELIFEQ, ReliedOn: true, Nodes: 1,
		Reasons: []Reason{{Kind: Unread, Node: NodeRef{Addr: "127.0.0.1:7001", Role: "primary"}, Evidence: "COMMAND INFO: ERR \x1b[2J\rSAFE"}}}}
	return r
}

// TestTerminalFormatsEscape: text and Markdown never carry a raw control
// byte from the run (only their own newlines), and show the escaped form;
// JSON and SARIF keep the exact strings (their encoders escape them).
func TestTerminalFormatsEscape(t *testing.T) {
	r := hostileRun()
	for _, format := range []string{"text", "markdown"} {
		var buf bytes.Buffer
		if err := Render(&buf, r, format); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if i := strings.IndexFunc(out, func(c rune) bool { return c != '\n' && unsafeRune(c) || c == '\uFFFD' }); i >= 0 {
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
		if err := Render(&buf, r, format); err != nil {
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
	WriteErrors(&stderr, r.Errors)
	if got := stderr.String(); got != "# 127.0.0.1:7001\ncould not be probed: -ERR \\x1b]0;SAFE\\a\\rSAFE\nsecond line\n" {
		t.Errorf("WriteErrors: %q", got)
	}
	if got := Summary(r); strings.ContainsAny(got, "\x1b\r\a") || !strings.Contains(got, `\x1b]0;SAFE\a\rSAFE`) {
		t.Errorf("Summary: %q", got)
	}
}

func TestShellQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"127.0.0.1:6379", "127.0.0.1:6379"},
		{"./...", "./..."},
		{"valkey-9.0,redis-7.2", "valkey-9.0,redis-7.2"},
		{"", "''"},
		{"$(id)", "'$(id)'"},
		{"it's", `'it'\''s'`},
		{"a b", "'a b'"},
		{"~", "'~'"},
	} {
		if got := ShellQuote(tc.in); got != tc.want {
			t.Errorf("ShellQuote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// rawUnsafe returns the first character of out that Escape would escape,
// other than the formats' own newlines and tabs, or "".
func rawUnsafe(out string) string {
	for _, c := range out {
		if c != '\n' && c != '\t' && unsafeRune(c) || c == utf8.RuneError {
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
	r := hostileRun()
	old := hostileRun()
	old.Findings = old.Findings[:1]
	c := Compare(old, r)
	for _, format := range Formats() {
		var run, cmp bytes.Buffer
		if err := Render(&run, r, format); err != nil {
			t.Fatal(err)
		}
		if err := RenderComparison(&cmp, c, Tool{Name: "lockaudit", Version: "v0.0.0-test"}, format); err != nil {
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
	if err := Render(&buf, r, "json"); err != nil {
		t.Fatal(err)
	}
	var back struct{ Findings []Finding }
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.Findings[2].Message != r.Findings[2].Message {
		t.Errorf("JSON does not keep the exact message: %v %q", err, back.Findings[2].Message)
	}
}
