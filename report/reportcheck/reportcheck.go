// Package reportcheck reads the headline verdict back from a rendered
// report, for tests that check a format shows the run's verdict: each of
// the three verdicts must appear exactly once, in its own place in the
// format's layout (the text report's "Native release (...): UNSAFE" line,
// the Markdown verdict table's bold cell, the HTML card's value, the JSON
// and SARIF verdict objects) — never found as a word somewhere nearby, where
// "safe" would match inside "unsafe" or in an explanation.
package reportcheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// headlines are, per format, the patterns whose one group is the value of
// native_release, native_extend and lua.
var headlines = map[string][3]*regexp.Regexp{
	"text": {
		regexp.MustCompile(`(?m)^  Native release \([^)\n]*\): ([A-Z]+)(?: \((?:your code relies on this|relied on \(-uses\)|assumed relied on \(no code analysed\))\))?$`),
		regexp.MustCompile(`(?m)^  Native extend \(SET IFEQ\): ([A-Z]+)(?: \((?:your code relies on this|relied on \(-uses\)|assumed relied on \(no code analysed\))\))?$`),
		regexp.MustCompile(`(?m)^  Lua scripts: ([A-Z]+)(?: \((?:your code relies on this|relied on \(-uses\)|assumed relied on \(no code analysed\))\))?$`),
	},
	"markdown": {
		regexp.MustCompile(`(?m)^\| Native release \| [^|\n]* \| \*\*([A-Z]+)\*\* \|`),
		regexp.MustCompile(`(?m)^\| Native extend \| [^|\n]* \| \*\*([A-Z]+)\*\* \|`),
		regexp.MustCompile(`(?m)^\| Lua scripts \| [^|\n]* \| \*\*([A-Z]+)\*\* \|`),
	},
	"html": {
		regexp.MustCompile(`<div class="path">Native release <span class="cmds">[^<]*</span></div>\n<div class="value">([A-Z]+)</div>`),
		regexp.MustCompile(`<div class="path">Native extend <span class="cmds">[^<]*</span></div>\n<div class="value">([A-Z]+)</div>`),
		regexp.MustCompile(`<div class="path">Lua scripts <span class="cmds">[^<]*</span></div>\n<div class="value">([A-Z]+)</div>`),
	},
}

// Words are the three verdict words (native_release, native_extend, lua)
// in the run's lower case.
type Words [3]string

// words reads the three words of a verdict object of the JSON form.
type words struct {
	NativeRelease string `json:"native_release"`
	NativeExtend  string `json:"native_extend"`
	Lua           string `json:"lua"`
}

// Verdict returns the verdict a report in format shows, or an error when a
// headline is missing or shown more than once.
func Verdict(format string, out []byte) (Words, error) {
	switch format {
	case "json":
		var r struct{ Verdict *words }
		if err := json.Unmarshal(out, &r); err != nil || r.Verdict == nil {
			return Words{}, fmt.Errorf("no verdict object in the JSON (%v)", err)
		}
		return Words{r.Verdict.NativeRelease, r.Verdict.NativeExtend, r.Verdict.Lua}, nil
	case "sarif":
		var log struct {
			Runs []struct {
				Properties struct{ Verdict *words } `json:"properties"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(out, &log); err != nil || len(log.Runs) != 1 || log.Runs[0].Properties.Verdict == nil {
			return Words{}, fmt.Errorf("no runs[0].properties.verdict in the SARIF (%v)", err)
		}
		v := log.Runs[0].Properties.Verdict
		return Words{v.NativeRelease, v.NativeExtend, v.Lua}, nil
	}
	res, ok := headlines[format]
	if !ok {
		return Words{}, fmt.Errorf("no headline pattern for format %q", format)
	}
	var vals Words
	for i, re := range res {
		m := re.FindAllSubmatch(out, -1)
		if len(m) != 1 {
			return Words{}, fmt.Errorf("%s: the headline %s appears %d times, want once", format, re, len(m))
		}
		vals[i] = strings.ToLower(string(m[0][1]))
	}
	return vals, nil
}

// Of is a run verdict's words.
func Of(v *report.Verdict) Words {
	var w Words
	for i, p := range rules.Paths() {
		w[i] = v.Of(p).Word()
	}
	return w
}

// Check compares the verdict a report shows with want (Of(run.Verdict),
// or words a test knows); "" when they are the same.
func Check(format string, out []byte, want Words) string {
	got, err := Verdict(format, out)
	if err != nil {
		return err.Error()
	}
	if got != want {
		return fmt.Sprintf("%s shows the verdict %s, want %s", format, strings.Join(got[:], "/"), strings.Join(want[:], "/"))
	}
	return ""
}

// banners are, per format, the patterns whose one group is the report's
// one-word status, the first thing a reader sees (the HTML banner and page
// title, the Markdown quote under the contents).
var banners = map[string][]*regexp.Regexp{
	"html": {
		regexp.MustCompile(`<div class="banner [a-z]+" role="status">\n<div class="word">([A-Z ]+)</div>`),
		regexp.MustCompile(`<title>[^<\n]*: ([A-Z ]+)</title>`),
	},
	"markdown": {
		regexp.MustCompile(`(?m)^> \*\*([A-Z ]+):\*\* [^\n]*$`),
	},
}

// WantBanner is the status word a run must show, worked out here from its
// exit status and verdict alone, not by the renderer's own code: SAFE only
// for a clean run with a verdict, UNSAFE when a path the code relies on is
// unsafe.
func WantBanner(r *report.Run) string {
	switch report.ExitCode(r) {
	case report.ExitFailed:
		return "INCOMPLETE"
	case report.ExitUnknown:
		return "UNKNOWN"
	case report.ExitFindings:
		if r.Verdict != nil {
			for _, u := range r.Uses {
				if r.Verdict.For(u.Command) == report.No {
					return "UNSAFE"
				}
			}
		}
		return "ACTION NEEDED"
	case report.ExitOK:
		if r.FailOn != report.FailOnDefault && len(r.Active()) > 0 {
			return "PASSED THE GATE" // findings below -fail-on
		}
		if r.Verdict != nil && len(r.Uses) > 0 {
			return "SAFE"
		}
		return "NO PROBLEMS FOUND"
	}
	return "UNKNOWN"
}

// CheckBanner compares the status word a report shows, in each of its
// places, with WantBanner(r); "" when they agree or the format has none
// (text, JSON and SARIF carry the exit status, not a word).
func CheckBanner(format string, out []byte, r *report.Run) string {
	want := WantBanner(r)
	for _, re := range banners[format] {
		m := re.FindAllSubmatch(out, -1)
		if len(m) != 1 {
			return fmt.Sprintf("%s: the status %s appears %d times, want once", format, re, len(m))
		}
		if got := string(m[0][1]); got != want {
			return fmt.Sprintf("%s shows the status %s, want %s (exit status %d)", format, got, want, report.ExitCode(r))
		}
	}
	return ""
}
