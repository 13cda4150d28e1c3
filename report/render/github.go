package render

import (
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/lockaudit/lockaudit/report"

	"github.com/lockaudit/lockaudit/rules"
)

func init() { registerFormat("github", renderGitHub) }

// MaxAnnotations is how many annotations of each level the github format
// writes: GitHub shows at most 10 error, 10 warning and 10 notice
// annotations of a step (and 50 of a job); the rest would be dropped
// without a word, so lockaudit says how many it left out instead.
const MaxAnnotations = 10

// renderGitHub writes the active findings as GitHub Actions workflow
// commands, one line each, most severe first:
//
//	::error file=billing/billing.go,line=56,col=2,title=LA108 discarded-release-reply::reply of DELIFEQ ...
//
// error findings become ::error, warnings ::warning, info ::notice; a
// node finding has no file and names its node in the message. At most
// MaxAnnotations of each level are written; a last plain line says how
// many were left out and where they are. The run comes escaped (a
// terminal format: every control character made visible), and property
// values and the message are escaped as the runner unescapes them
// (githubProperty, githubData), so no text from a source file or a server
// can end the command or start another.
func renderGitHub(w io.Writer, r *report.Run, _ Options) error {
	p := &errWriter{w: w}
	active := r.Active()
	sort.SliceStable(active, func(i, j int) bool { return active[i].Severity > active[j].Severity })
	written := map[rules.Severity]int{}
	left := 0
	for _, f := range active {
		if written[f.Severity] >= MaxAnnotations {
			left++
			continue
		}
		written[f.Severity]++
		level := "notice"
		switch f.Severity {
		case rules.Error:
			level = "error"
		case rules.Warning:
			level = "warning"
		}
		title := string(f.Rule)
		if rl, ok := rules.Get(f.Rule); ok {
			title += " " + rl.Name
		}
		var props []string
		msg := f.Message
		if f.Pos != nil {
			props = append(props, "file="+githubProperty(f.Pos.File), "line="+strconv.Itoa(f.Pos.Line))
			if f.Pos.Col > 0 {
				props = append(props, "col="+strconv.Itoa(f.Pos.Col))
			}
		} else if f.Node != "" {
			msg = f.Node + ": " + msg
		}
		props = append(props, "title="+githubProperty(title))
		p.printf("::%s %s::%s\n", level, strings.Join(props, ","), githubData(msg))
	}
	if left > 0 {
		p.printf("lockaudit: %s not annotated (GitHub shows at most %d of each level in a step): see the report above or the SARIF\n", report.Plural(left, "more finding"), MaxAnnotations)
	}
	return p.err
}

// githubData escapes a workflow command's message as the runner's
// UnescapeData reverses it: %, CR and LF.
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// githubProperty escapes a property value as the runner's
// UnescapeProperty reverses it: also ":" (which would end the properties)
// and "," (which would start another).
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
