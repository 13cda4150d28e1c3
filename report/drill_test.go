package report

import (
	"bytes"
	stdhtml "html"
	"os"
	"strings"
	"testing"
)

// realDrill is a record lockaudit drill wrote (all six settings, on real
// servers): testdata/drill.json.
func realDrill(t *testing.T) *Run {
	t.Helper()
	data, err := os.ReadFile("testdata/drill.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := DecodeRun(data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDrillRendered: every format shows the table with one row per
// setting, the closing line and each timeline.
func TestDrillRendered(t *testing.T) {
	r := realDrill(t)
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
			DrillSettingTitle(SettingMinReplicasLag), DrillSettingTitle(SettingClockSkew), "kills the primary", "the replica never sees them"} {
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
	if s := statusOf(r, newView(r.escaped())); s.Word != "FAILOVER DRILL" || !strings.Contains(s.Headline, closing) {
		t.Errorf("status %+v", s)
	}
}

// TestDrillValidate: values outside their sets and an outcome that
// contradicts itself are refused.
func TestDrillValidate(t *testing.T) {
	for _, tc := range []struct {
		edit func(*Drill)
		want string
	}{
		{func(d *Drill) { d.Variants[0].Setting = "fast" }, `setting: "fast"`},
		{func(d *Drill) { d.Variants[0].Events[0].Actor = "C" }, `actor: "C"`},
		{func(d *Drill) { d.Variants[0].Events[0].Step = "hold" }, "a command or a step"},
		{func(d *Drill) { d.Variants[0].Outcome.AWrite = "maybe" }, `a_write: "maybe"`},
		{func(d *Drill) { d.Variants[0].Outcome.BAcquired = false }, "A and B both"},
	} {
		r := realDrill(t)
		if err := r.Validate(); err != nil {
			t.Fatalf("the real record does not validate: %v", err)
		}
		tc.edit(r.Drill)
		if err := r.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
}
