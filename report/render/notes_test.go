package render_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
)

// hostileNotes is Markdown a consultant's notes file could hold, by
// mistake or copied from elsewhere: raw HTML, script links, images that
// would be fetched, markup inside link texts and code.
const hostileNotes = `# Findings <script>alert("h1")</script>

Plain **bold** and _em_, a [safe link](https://tickets.example/T-1) and [mail](mailto:ops@example.com).

[click](javascript:alert(document.cookie)) [data](data:text/html;base64,PHNjcmlwdD4=) [rel](../etc/passwd) [JS](  JAVASCRIPT:alert(2) )
<javascript:alert(3)> <https://auto.example/x>

![tracker](https://evil.example/pixel.png) ![local](file:///etc/passwd)

<div onclick="alert(4)"><img src=x onerror=alert(5)></div>

Inline <b onmouseover="alert(6)">tag</b> and <iframe src="https://evil.example/"></iframe>.

` + "`<script>in code</script>`" + `

` + "```html\n<script>fenced</script>\n```" + `

- list <style>body{background:url(https://evil.example/x)}</style>
  1. nested [x](vbscript:msgbox)

> quote with <svg onload=alert(7)>
`

func notesRun() *report.Run {
	r := loadRunNoT()
	r.Engagement = &report.Engagement{Title: "T", Client: "<script>alert(8)</script>", Notes: hostileNotes}
	return r
}

// loadRunNoT is a small valid run.
func loadRunNoT() *report.Run { return fixture.Vet() }

func TestNotesHTMLIsSafe(t *testing.T) {
	out := string(rendered(t, notesRun(), "html"))
	if p := fetchProblems(out); p != nil {
		t.Errorf("hostile notes: %v", p)
	}
	notes := out[strings.Index(out, `<section id="notes">`):]
	notes = notes[:strings.Index(notes, "</section>")]
	for _, bad := range []string{"<script", "<img", "<iframe", "<style", "<svg", "<div onclick", "<b onmouseover", "javascript:alert(3)\">", `href="javascript`, `href="data`, `href="../`, `href="vbscript`, `href="file`, "<javascript:"} {
		if strings.Contains(strings.ToLower(notes), strings.ToLower(bad)) {
			t.Errorf("the notes section holds %q", bad)
		}
	}
	if regexp.MustCompile(`<[a-z]+[^>]*\son[a-z]+=`).MatchString(notes) {
		t.Errorf("an event handler attribute reached the notes")
	}
	// What is safe keeps its form; the rest is shown as text.
	for _, want := range []string{
		`<strong>bold</strong>`, `<em>em</em>`,
		`<a href="https://tickets.example/T-1" rel="noopener noreferrer">safe link</a>`,
		`<a href="mailto:ops@example.com" rel="noopener noreferrer">mail</a>`,
		`<a href="https://auto.example/x" rel="noopener noreferrer">https://auto.example/x</a>`,
		`click (javascript:alert(document.cookie))`,
		`[image: tracker (https://evil.example/pixel.png)]`,
		`&lt;b onmouseover=&#34;alert(6)&#34;&gt;tag&lt;/b&gt;`,
		`<code>&lt;script&gt;in code&lt;/script&gt;</code>`,
		`&lt;script&gt;fenced&lt;/script&gt;`,
		`<h3>Findings &lt;script&gt;alert(&#34;h1&#34;)&lt;/script&gt;</h3>`,
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("the notes section lacks %q:\n%s", want, notes)
		}
	}
	if strings.Contains(out, "<script>alert(8)") {
		t.Errorf("the client's name reached the page as markup")
	}
}

func TestNotesMarkdownIsSafe(t *testing.T) {
	out := string(rendered(t, notesRun(), "markdown"))
	start := strings.Index(out, "## Notes from the auditor")
	notes := out[start:]
	notes = notes[:strings.Index(notes[3:], "\n## ")+3]
	if m := regexp.MustCompile(`(^|[^\\])<[a-zA-Z/]`).FindString(outsideCode(notes)); m != "" {
		t.Errorf("raw markup in the Markdown notes: %q\n%s", m, notes)
	}
	for _, bad := range []string{"](javascript", "](<javascript", "](data", "](<data", "](vbscript", "](<vbscript", "![", "](../", "<javascript:"} {
		if strings.Contains(strings.ToLower(notes), bad) {
			t.Errorf("the Markdown notes hold %q:\n%s", bad, notes)
		}
	}
	for _, want := range []string{"**bold**", "[safe link](https://tickets.example/T-1)", "[https://auto.example/x](https://auto.example/x)", "click (`javascript:alert(document.cookie)`)", "#### Findings \\<script\\>"} {
		if !strings.Contains(notes, want) {
			t.Errorf("the Markdown notes lack %q:\n%s", want, notes)
		}
	}
	// The text report shows the notes nowhere it could act on a terminal.
	txt := string(rendered(t, notesRun(), "text"))
	if strings.Contains(txt, "\x1b") {
		t.Errorf("text report holds an escape character")
	}
}
