package render

import (
	"bytes"
	stdhtml "html"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
)

// TestDrillRendered: every format shows, for a record lockaudit drill
// wrote (all six settings, on real servers), the table with one row per
// setting, the closing line and each timeline.
func TestDrillRendered(t *testing.T) {
	r := fixture.Load(t, "drill")
	if len(r.Drill.Variants) != 6 {
		t.Fatalf("%d variants, want 6", len(r.Drill.Variants))
	}
	closing := "double holder: yes; stale write rejected by the fence: yes"
	for _, format := range []string{"text", "markdown", "html"} {
		var buf bytes.Buffer
		if err := RenderWith(&buf, r, format, Options{}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		switch format {
		case "markdown":
			out = strings.ReplaceAll(out, `\`, "") // Markdown escapes [ ] - and the like
		case "html":
			out = stdhtml.UnescapeString(out)
		}
		for _, want := range []string{closing, "WAIT 1 → 0", "acquire refused (NOREPLICAS)", "[OK, 42]", "0 rows", "1 row",
			DrillSettingTitle(report.SettingMinReplicasLag), DrillSettingTitle(report.SettingClockSkew), "kills the primary", "the replica never sees them"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: missing %q", format, want)
			}
		}
	}
	var html bytes.Buffer
	RenderWith(&html, r, "html", Options{})
	if !strings.Contains(html.String(), `<section id="drill">`) || !strings.Contains(html.String(), `href="#drill"`) {
		t.Error("html: no drill section in the page or its contents")
	}
	if s := statusOf(r, newView(r.Escaped())); s.Word != "FAILOVER DRILL" || !strings.Contains(s.Headline, closing) {
		t.Errorf("status %+v", s)
	}
}
