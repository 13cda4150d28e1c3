package render_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report/internal/fixture"
)

func TestMarkdownGolden(t *testing.T) {
	for _, name := range fixture.Names {
		t.Run(name, func(t *testing.T) {
			fixture.Golden(t, name+".md", rendered(t, fixture.Load(t, name), "markdown"))
		})
	}
}

// cellCount counts a table row's cells the way GitHub does: a pipe ends a
// cell unless a backslash escapes it, even inside a code span.
func cellCount(row string) int {
	n := 0
	for i := 1; i < len(row); i++ {
		if row[i] == '|' && row[i-1] != '\\' {
			n++
		}
	}
	return n
}

func TestMarkdownTablesKeepTheirShape(t *testing.T) {
	runs := map[string][]byte{"hostile": rendered(t, hostileRun(), "markdown")}
	for _, name := range fixture.Names {
		runs[name] = rendered(t, fixture.Load(t, name), "markdown")
	}
	for name, out := range runs {
		lines := strings.Split(string(out), "\n")
		width := 0
		for i, l := range lines {
			if !strings.HasPrefix(l, "|") {
				width = 0
				continue
			}
			if width == 0 {
				width = cellCount(l)
				if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "|---") {
					t.Errorf("%s line %d: a table without its delimiter row", name, i+1)
				}
				continue
			}
			if c := cellCount(l); c != width {
				t.Errorf("%s line %d: %d cells in a %d-column table: %s", name, i+1, c, width, l)
			}
		}
	}
}

func TestMarkdownEscapes(t *testing.T) {
	out := string(rendered(t, hostileRun(), "markdown"))
	// Outside code, markup is backslash-escaped; inside code spans and
	// fences it is literal and inert.
	if m := regexp.MustCompile(`(^|[^\\])<[a-zA-Z/]`).FindString(outsideCode(out)); m != "" {
		t.Errorf("unescaped markup outside code in the Markdown report: %q", m)
	}
	if outsideCode("a `<b>` c\n```\n<i>\n```\nd ``x`<y``") != "a  c\nd " {
		t.Errorf("outsideCode is wrong: %q", outsideCode("a `<b>` c\n```\n<i>\n```\nd ``x`<y``"))
	}
	if !strings.Contains(out, `msg \<script\>alert("x")\</script\>`) {
		t.Errorf("the message is not shown escaped")
	}
	// A source line holding ``` gets a longer fence.
	if !strings.Contains(out, "  ````\n  rdb.Del(ctx, `<script>") {
		t.Errorf("a source line with a backtick fence inside is not fenced with four backticks:\n%s", out)
	}
	// A finding of a rule this lockaudit does not know is kept.
	if !strings.Contains(out, "LA999") {
		t.Errorf("the finding of an unknown rule is dropped")
	}
}

func TestMarkdownTopologyIsANestedList(t *testing.T) {
	out := string(rendered(t, fixture.Load(t, "probe-cluster"), "markdown"))
	for _, want := range []string{
		"- Shard 1: shard ID `9c0e4f1aa7d2b3c4e5f60718293a4b5c6d7e8f90`\n  - primary `10.1.0.1:7000`: Valkey 9.2.0, can become primary; Lua yes, DELIFEQ yes, DELEX yes, SET IFEQ yes\n    - replica `10.1.0.2:7000`",
		"    - replica `10.1.0.4:7000`: Valkey 9.1.3, manual failover only; Lua yes, DELIFEQ yes, DELEX **NO**, SET IFEQ yes",
		"    - replica `10.1.0.6:7000`: Unknown server, can become primary; Lua unknown, DELIFEQ unknown, DELEX unknown, SET IFEQ unknown; **1 error**",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("topology lacks %q", want)
		}
	}
	if strings.Contains(out, "<svg") {
		t.Errorf("Markdown carries SVG")
	}
}

// outsideCode removes fenced blocks and code spans, where Markdown shows
// text literally.
func outsideCode(md string) string {
	var b strings.Builder
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		if t := strings.TrimLeft(lines[i], " "); strings.HasPrefix(t, "```") {
			fence := t[:len(t)-len(strings.TrimLeft(t, "`"))]
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != fence; i++ {
			}
			continue
		}
		l := lines[i]
		for {
			start := strings.IndexByte(l, '`')
			if start < 0 {
				break
			}
			n := len(l[start:]) - len(strings.TrimLeft(l[start:], "`"))
			end := strings.Index(l[start+n:], l[start:start+n])
			if end < 0 {
				break
			}
			l = l[:start] + l[start+n+end+n:]
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}
