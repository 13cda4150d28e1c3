package render

import (
	"embed"
	"fmt"
	"html"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/jsonstream"

	"github.com/lockaudit/lockaudit/rules"
)

// The HTML report is one self-contained file for a client: inline CSS and
// inline SVG, no scripts, fonts or images, nothing fetched from the network.
// html/template escapes every value that comes from the Run.

//go:embed templates/report.html.tmpl templates/report.css
var templateFS embed.FS

// htmlTemplate is parsed on first use, not at start-up: most lockaudit
// processes (vet, every package of a go vet -vettool run) write no HTML.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report.html.tmpl").Funcs(template.FuncMap{
		"plural":    report.Plural,
		"oneline":   oneLine,
		"join":      strings.Join,
		"short":     shortID,
		"loc":       func(f report.Finding) string { return f.Location() },
		"trim":      func(s string) string { return strings.TrimSpace(s) },
		"trimnl":    func(s string) string { return strings.TrimRight(s, "\n") },
		"suppKind":  suppressionKind,
		"prose":     prose,
		"notes":     notesHTML,
		"kindTitle": stepKindTitle,
		"inc":       func(i int) int { return i + 1 },
		"sub":       func(a, b int) int { return a - b },
		"short12":   func(s string) string { return s[:min(len(s), 12)] },
		"stepClass": stepClass,
		"wordClass": wordClass,
		"lower":     strings.ToLower,
		"human":     humanTime,
		"ruleTitle": ruleTitle,
		"databases": databaseText,
	}).ParseFS(templateFS, "templates/report.html.tmpl"))
})

var reportCSS = sync.OnceValue(func() template.CSS {
	b, err := templateFS.ReadFile("templates/report.css")
	if err != nil {
		panic(err) // embedded at build time
	}
	return template.CSS(b)
})

func init() { registerFormat("html", renderHTML) }

type htmlData struct {
	*view
	CSS           template.CSS
	Tool          string
	SchemaVersion int
	// RunningHead is the printed pages' running header: the client and
	// the date (or the title without a client), as a CSS @page rule.
	RunningHead template.CSS
}

func renderHTML(w io.Writer, r *report.Run, _ Options) error {
	data := htmlData{view: newView(r), CSS: reportCSS(), Tool: strings.TrimSpace(r.Tool.Name + " " + r.Tool.Version), SchemaVersion: r.SchemaVersion}
	data.RunningHead = template.CSS(`@page { @top-left { content: "` + cssString(runningHead(r, data.Title)) + `"; } }`)
	// Render into a buffer so a template error never leaves half a report
	// (chunks: a large report is not copied as the buffer grows).
	var buf jsonstream.Chunks
	if err := htmlTemplate().Execute(&buf, data); err != nil {
		return err
	}
	return buf.Flush(w)
}

// ruleTitle is a rule's title from the catalog, or its ID.
func ruleTitle(id rules.ID) string {
	if r, ok := rules.Get(id); ok {
		return r.Title
	}
	return string(id)
}

// runningHead is "Client · 5 December 2026, 11:40 UTC": who the report is
// for and its date, on every printed page.
func runningHead(r *report.Run, title string) string {
	head := title
	if en := r.Engagement; en != nil && en.Client != "" {
		head = en.Client
	}
	if r.Time != "" {
		head += " · " + humanTime(r.Time)
	}
	return head
}

// cssString escapes text for a CSS string: every character but letters,
// digits as a hex escape (a space after one would be swallowed), so no value can end the string or
// the style element.
func cssString(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, "\\%06x", r)
	}
	return b.String()
}

// suppressionKind words SARIF's suppression kinds for a reader.
func suppressionKind(kind string) string {
	switch kind {
	case "inSource":
		return "in source"
	case "external":
		return "baseline or config"
	}
	return kind
}

// prose escapes catalog text and shows its `backtick` spans as code, as the
// Markdown report does.
func prose(s string) template.HTML {
	var b strings.Builder
	for i, part := range strings.Split(s, "`") {
		if i%2 == 1 && i < strings.Count(s, "`") {
			b.WriteString("<code>" + html.EscapeString(part) + "</code>")
		} else if i%2 == 1 {
			b.WriteString("`" + html.EscapeString(part)) // unpaired backtick
		} else {
			b.WriteString(html.EscapeString(part))
		}
	}
	return template.HTML(b.String())
}

// stepClass colors a conformance step's status.
func stepClass(status string) string {
	switch status {
	case report.StepPass:
		return "safe"
	case report.StepFail, report.StepMissing:
		return "unsafe"
	case report.StepError:
		return "unknown"
	}
	return "no"
}

// wordClass colors a verdict word.
func wordClass(word string) string {
	switch word {
	case report.Safe, report.Available:
		return "safe"
	case report.Unsafe, report.Missing:
		return "unsafe"
	}
	return "unknown"
}
