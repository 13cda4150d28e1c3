package render

import (
	"bytes"
	"html"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// The consultant's notes are Markdown from outside lockaudit, shown in a
// report a client opens. They are parsed (CommonMark, goldmark) and
// written out again by the two functions below, which emit only what they
// know: paragraphs, headings, lists, quotes, emphasis, code, and links to
// http, https and mailto addresses. Raw HTML is shown as text, never as
// markup; any other link (javascript:, data:, a relative path) is shown as
// its text and address; an image is shown as its description and address,
// never fetched.

var notesParser = sync.OnceValue(func() goldmark.Markdown { return goldmark.New() })

func parseNotes(src string) (ast.Node, notesSource) {
	b := []byte(src)
	return notesParser().Parser().Parse(text.NewReader(b)), b
}

// safeURL returns a link's address when a report may link to it: an
// absolute http or https URL with a host, or a mailto address.
func safeURL(dest string) (string, bool) {
	if strings.ContainsAny(dest, "\x00\r\n\t <>\"'`\\") {
		return "", false
	}
	u, err := url.Parse(dest)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return "", false
		}
	case "mailto":
		if u.Opaque == "" {
			return "", false
		}
	default:
		return "", false
	}
	return u.String(), true
}

// notesSource is the notes' text, which the parsed nodes point into.
type notesSource []byte

// lines is a block's text, its lines joined.
func (src notesSource) lines(n ast.Node) []byte {
	var out []byte
	ls := n.Lines()
	for i := 0; i < ls.Len(); i++ {
		seg := ls.At(i)
		out = append(out, seg.Value(src)...)
	}
	return out
}

// code is a code or raw HTML block's text, an HTML block's closing line
// included.
func (src notesSource) code(n ast.Node) []byte {
	out := src.lines(n)
	if hb, ok := n.(*ast.HTMLBlock); ok && hb.HasClosure() {
		out = append(out, hb.ClosureLine.Value(src)...)
	}
	return out
}

// codeSpan is an inline code span's text.
func (src notesSource) codeSpan(n *ast.CodeSpan) []byte {
	var out []byte
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			out = append(out, t.Segment.Value(src)...)
		}
	}
	return out
}

// rawHTML is inline raw HTML's text, shown as text.
func (src notesSource) rawHTML(n *ast.RawHTML) []byte {
	var out []byte
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		out = append(out, seg.Value(src)...)
	}
	return out
}

// notesHTML renders notes as HTML; every text is escaped.
func notesHTML(src string) template.HTML {
	if strings.TrimSpace(src) == "" {
		return ""
	}
	doc, source := parseNotes(src)
	w := &notesHTMLWriter{src: source}
	w.node(doc)
	return template.HTML(w.b.String())
}

// notesHTMLWriter writes the notes' nodes as HTML.
type notesHTMLWriter struct {
	b   strings.Builder
	src notesSource
}

func (w *notesHTMLWriter) esc(s []byte) { w.b.WriteString(html.EscapeString(string(s))) }

func (w *notesHTMLWriter) children(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.node(c)
	}
}

// node writes a block or an inline; what it does not know, it writes
// only the children of.
func (w *notesHTMLWriter) node(n ast.Node) {
	if !w.block(n) && !w.inline(n) {
		w.children(n)
	}
}

// block writes n when it is a block, and says whether it was.
func (w *notesHTMLWriter) block(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.Document:
		w.children(n)
	case *ast.Paragraph:
		w.b.WriteString("<p>")
		w.children(n)
		w.b.WriteString("</p>\n")
	case *ast.TextBlock:
		w.children(n)
		if n.NextSibling() != nil {
			w.b.WriteString("<br>")
		}
	case *ast.Heading:
		// Notes live under the report's own headings: h3 at most.
		lvl := strconv.Itoa(min(n.Level+2, 6))
		w.b.WriteString("<h" + lvl + ">")
		w.children(n)
		w.b.WriteString("</h" + lvl + ">\n")
	case *ast.Blockquote:
		w.b.WriteString("<blockquote>\n")
		w.children(n)
		w.b.WriteString("</blockquote>\n")
	case *ast.List:
		tag := "ul"
		if n.IsOrdered() {
			tag = "ol"
		}
		w.b.WriteString("<" + tag)
		if n.IsOrdered() && n.Start != 1 {
			w.b.WriteString(` start="` + strconv.Itoa(n.Start) + `"`)
		}
		w.b.WriteString(">\n")
		w.children(n)
		w.b.WriteString("</" + tag + ">\n")
	case *ast.ListItem:
		w.b.WriteString("<li>")
		w.children(n)
		w.b.WriteString("</li>\n")
	case *ast.ThematicBreak:
		w.b.WriteString("<hr>\n")
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
		w.b.WriteString(`<pre class="notecode">`)
		w.esc(w.src.code(n))
		w.b.WriteString("</pre>\n")
	default:
		return false
	}
	return true
}

// anchor writes a link to dest around text when a report may link to it
// (safeURL), and says whether it did.
func (w *notesHTMLWriter) anchor(dest string, text func()) bool {
	u, ok := safeURL(dest)
	if ok {
		w.b.WriteString(`<a href="` + html.EscapeString(u) + `" rel="noopener noreferrer">`)
		text()
		w.b.WriteString("</a>")
	}
	return ok
}

// inline writes n when it is an inline, and says whether it was.
func (w *notesHTMLWriter) inline(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.Text:
		w.esc(n.Segment.Value(w.src))
		switch {
		case n.HardLineBreak():
			w.b.WriteString("<br>\n")
		case n.SoftLineBreak():
			w.b.WriteString("\n")
		}
	case *ast.String:
		w.esc(n.Value)
	case *ast.CodeSpan:
		w.b.WriteString("<code>")
		w.esc(w.src.codeSpan(n))
		w.b.WriteString("</code>")
	case *ast.Emphasis:
		tag := "em"
		if n.Level >= 2 {
			tag = "strong"
		}
		w.b.WriteString("<" + tag + ">")
		w.children(n)
		w.b.WriteString("</" + tag + ">")
	case *ast.Link:
		if !w.anchor(string(n.Destination), func() { w.children(n) }) {
			w.children(n)
			w.b.WriteString(" (")
			w.esc(n.Destination)
			w.b.WriteString(")")
		}
	case *ast.AutoLink:
		label := func() { w.esc(n.Label(w.src)) }
		if !w.anchor(string(n.URL(w.src)), label) {
			label()
		}
	case *ast.Image:
		w.b.WriteString("[image: ")
		w.children(n)
		w.b.WriteString(" (")
		w.esc(n.Destination)
		w.b.WriteString(")]")
	case *ast.RawHTML:
		w.esc(w.src.rawHTML(n))
	default:
		return false
	}
	return true
}

// notesMarkdown writes notes as Markdown the report controls: text is
// Escaped with mdText, code with mdCode and fences, headings start below
// the report's own, and only safe links stay links.
func notesMarkdown(src string) string {
	if strings.TrimSpace(src) == "" {
		return ""
	}
	doc, source := parseNotes(src)
	w := &notesMarkdownWriter{out: &bytes.Buffer{}, src: source}
	w.blocks(doc, "")
	return w.out.String()
}

// notesMarkdownWriter writes the notes' nodes as Markdown.
type notesMarkdownWriter struct {
	out *bytes.Buffer
	src notesSource
}

// inlines is n's children as Markdown.
func (w *notesMarkdownWriter) inlines(n ast.Node) string {
	var s strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		s.WriteString(w.inline(c))
	}
	return s.String()
}

// inline is one inline node as Markdown.
func (w *notesMarkdownWriter) inline(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Text:
		s := mdEscape(string(n.Segment.Value(w.src)))
		switch {
		case n.HardLineBreak():
			s += "\\\n"
		case n.SoftLineBreak():
			s += "\n"
		}
		return s
	case *ast.String:
		return mdEscape(string(n.Value))
	case *ast.CodeSpan:
		return mdCode(string(w.src.codeSpan(n)))
	case *ast.Emphasis:
		mark := "_"
		if n.Level >= 2 {
			mark = "**"
		}
		return mark + w.inlines(n) + mark
	case *ast.Link:
		if u, ok := safeURL(string(n.Destination)); ok {
			return "[" + w.inlines(n) + "](" + mdURL(u) + ")"
		}
		return w.inlines(n) + " (" + mdCode(string(n.Destination)) + ")"
	case *ast.AutoLink:
		if u, ok := safeURL(string(n.URL(w.src))); ok {
			return "[" + mdEscape(string(n.Label(w.src))) + "](" + mdURL(u) + ")"
		}
		return mdEscape(string(n.Label(w.src)))
	case *ast.Image:
		return "\\[image: " + w.inlines(n) + " (" + mdCode(string(n.Destination)) + ")\\]"
	case *ast.RawHTML:
		return mdEscape(string(w.src.rawHTML(n)))
	}
	return w.inlines(n)
}

// para writes text's lines, each under prefix.
func (w *notesMarkdownWriter) para(text, prefix string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		w.out.WriteString(strings.TrimRight(prefix+l, " ") + "\n")
	}
}

// blocks writes n's children, a blank line (under prefix) between them.
func (w *notesMarkdownWriter) blocks(n ast.Node, prefix string) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.block(c, prefix)
		if c.NextSibling() != nil && c.Kind() != ast.KindTextBlock {
			w.out.WriteString(strings.TrimRight(prefix, " ") + "\n")
		}
	}
}

// block writes one block node, each line under prefix.
func (w *notesMarkdownWriter) block(n ast.Node, prefix string) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		w.para(w.inlines(n), prefix)
	case *ast.Heading:
		w.para(strings.Repeat("#", min(n.Level+3, 6))+" "+strings.ReplaceAll(w.inlines(n), "\n", " "), prefix)
	case *ast.Blockquote:
		w.blocks(n, prefix+"> ")
	case *ast.List:
		w.list(n, prefix)
	case *ast.ThematicBreak:
		w.para("---", prefix)
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
		md := &mdWriter{&bytes.Buffer{}}
		md.fence(strings.TrimRight(string(w.src.code(n)), "\n"), "")
		w.para(md.b.String(), prefix)
	default:
		w.blocks(n, prefix)
	}
}

// list writes each item under its marker, its further lines indented to
// the marker's width.
func (w *notesMarkdownWriter) list(n *ast.List, prefix string) {
	i := n.Start
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		marker := "- "
		if n.IsOrdered() {
			marker = strconv.Itoa(i) + ". "
			i++
		}
		saved := w.out
		w.out = &bytes.Buffer{}
		w.blocks(c, "")
		item := w.out
		w.out = saved
		for j, l := range strings.Split(strings.TrimRight(item.String(), "\n"), "\n") {
			lead := strings.Repeat(" ", len(marker))
			if j == 0 {
				lead = marker
			}
			w.out.WriteString(strings.TrimRight(prefix+lead+l, " ") + "\n")
		}
	}
}

// mdURL is a safe URL as a Markdown link destination: safeURL allows no
// space, angle bracket or quote; parentheses are percent-encoded so none
// ends the destination.
func mdURL(u string) string {
	return strings.NewReplacer("(", "%28", ")", "%29").Replace(u)
}
