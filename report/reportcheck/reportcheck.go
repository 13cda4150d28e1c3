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
		regexp.MustCompile(`(?m)^  Native release \([^)\n]*\): ([A-Z]+)(?: \(your code relies on this\))?$`),
		regexp.MustCompile(`(?m)^  Native extend \(SET IFEQ\): ([A-Z]+)(?: \(your code relies on this\))?$`),
		regexp.MustCompile(`(?m)^  Lua scripts: ([A-Z]+)(?: \(your code relies on this\))?$`),
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
