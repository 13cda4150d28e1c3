// Package reportcheck reads the headline verdict back from a rendered
// report, for tests that check a format shows the run's verdict: each of
// the three verdicts must appear exactly once, in its own place in the
// format's layout (the text report's "native release (...): UNSAFE" line,
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
)

// headlines are, per format, the patterns whose one group is the value of
// native_release, native_extend and lua.
var headlines = map[string][3]*regexp.Regexp{
	"text": {
		regexp.MustCompile(`(?m)^  native release \([^)\n]*\): ([A-Z]+)(?: \(your code relies on this\))?$`),
		regexp.MustCompile(`(?m)^  native extend \(SET IFEQ\): ([A-Z]+)(?: \(your code relies on this\))?$`),
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

// Verdict returns the verdict a report in format shows (values in the
// run's lower case, no reasons), or an error when a headline is missing
// or shown more than once.
func Verdict(format string, out []byte) (report.Verdict, error) {
	switch format {
	case "json":
		var r struct{ Verdict *report.Verdict }
		if err := json.Unmarshal(out, &r); err != nil || r.Verdict == nil {
			return report.Verdict{}, fmt.Errorf("no verdict object in the JSON (%v)", err)
		}
		return report.Verdict{NativeRelease: r.Verdict.NativeRelease, NativeExtend: r.Verdict.NativeExtend, Lua: r.Verdict.Lua}, nil
	case "sarif":
		var log struct {
			Runs []struct {
				Properties struct{ Verdict *report.Verdict } `json:"properties"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(out, &log); err != nil || len(log.Runs) != 1 || log.Runs[0].Properties.Verdict == nil {
			return report.Verdict{}, fmt.Errorf("no runs[0].properties.verdict in the SARIF (%v)", err)
		}
		v := log.Runs[0].Properties.Verdict
		return report.Verdict{NativeRelease: v.NativeRelease, NativeExtend: v.NativeExtend, Lua: v.Lua}, nil
	}
	res, ok := headlines[format]
	if !ok {
		return report.Verdict{}, fmt.Errorf("no headline pattern for format %q", format)
	}
	var vals [3]string
	for i, re := range res {
		m := re.FindAllSubmatch(out, -1)
		if len(m) != 1 {
			return report.Verdict{}, fmt.Errorf("%s: the headline %s appears %d times, want once", format, re, len(m))
		}
		vals[i] = strings.ToLower(string(m[0][1]))
	}
	return report.Verdict{NativeRelease: vals[0], NativeExtend: vals[1], Lua: vals[2]}, nil
}

// Check compares the verdict a report shows with the run's; "" when they
// are the same.
func Check(format string, out []byte, want *report.Verdict) string {
	got, err := Verdict(format, out)
	if err != nil {
		return err.Error()
	}
	if got.NativeRelease != want.NativeRelease || got.NativeExtend != want.NativeExtend || got.Lua != want.Lua {
		return fmt.Sprintf("%s shows the verdict %s/%s/%s, the run's is %s/%s/%s", format,
			got.NativeRelease, got.NativeExtend, got.Lua, want.NativeRelease, want.NativeExtend, want.Lua)
	}
	return ""
}
