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

func parseNotes(src string) (ast.Node, []byte) {
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

// notesHTML renders notes as HTML; every text is escaped.
func notesHTML(src string) template.HTML {
	if strings.TrimSpace(src) == "" {
		return ""
	}
	doc, source := parseNotes(src)
	var b strings.Builder
	var walk func(n ast.Node)
	children := func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c)
		}
	}
	esc := func(s []byte) { b.WriteString(html.EscapeString(string(s))) }
	lines := func(n ast.Node) []byte {
		var out []byte
		ls := n.Lines()
		for i := 0; i < ls.Len(); i++ {
			seg := ls.At(i)
			out = append(out, seg.Value(source)...)
		}
		return out
	}
	walk = func(n ast.Node) {
		switch n := n.(type) {
		case *ast.Document:
			children(n)
		case *ast.Paragraph:
			b.WriteString("<p>")
			children(n)
			b.WriteString("</p>\n")
		case *ast.TextBlock:
			children(n)
			if n.NextSibling() != nil {
				b.WriteString("<br>")
			}
		case *ast.Heading:
			// Notes live under the report's own headings: h3 at most.
			lvl := strconv.Itoa(min(n.Level+2, 6))
			b.WriteString("<h" + lvl + ">")
			children(n)
			b.WriteString("</h" + lvl + ">\n")
		case *ast.Blockquote:
			b.WriteString("<blockquote>\n")
			children(n)
			b.WriteString("</blockquote>\n")
		case *ast.List:
			tag := "ul"
			if n.IsOrdered() {
				tag = "ol"
			}
			b.WriteString("<" + tag)
			if n.IsOrdered() && n.Start != 1 {
				b.WriteString(` start="` + strconv.Itoa(n.Start) + `"`)
			}
			b.WriteString(">\n")
			children(n)
			b.WriteString("</" + tag + ">\n")
		case *ast.ListItem:
			b.WriteString("<li>")
			children(n)
			b.WriteString("</li>\n")
		case *ast.ThematicBreak:
			b.WriteString("<hr>\n")
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			b.WriteString(`<pre class="notecode">`)
			esc(lines(n))
			b.WriteString("</pre>\n")
		case *ast.HTMLBlock:
			b.WriteString(`<pre class="notecode">`)
			esc(lines(n))
			if n.HasClosure() {
				esc(n.ClosureLine.Value(source))
			}
			b.WriteString("</pre>\n")
		case *ast.Text:
			esc(n.Segment.Value(source))
			switch {
			case n.HardLineBreak():
				b.WriteString("<br>\n")
			case n.SoftLineBreak():
				b.WriteString("\n")
			}
		case *ast.String:
			esc(n.Value)
		case *ast.CodeSpan:
			b.WriteString("<code>")
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					esc(t.Segment.Value(source))
				}
			}
			b.WriteString("</code>")
		case *ast.Emphasis:
			tag := "em"
			if n.Level >= 2 {
				tag = "strong"
			}
			b.WriteString("<" + tag + ">")
			children(n)
			b.WriteString("</" + tag + ">")
		case *ast.Link:
			if u, ok := safeURL(string(n.Destination)); ok {
				b.WriteString(`<a href="` + html.EscapeString(u) + `" rel="noopener noreferrer">`)
				children(n)
				b.WriteString("</a>")
			} else {
				children(n)
				b.WriteString(" (")
				esc(n.Destination)
				b.WriteString(")")
			}
		case *ast.AutoLink:
			dest := string(n.URL(source))
			if u, ok := safeURL(dest); ok {
				b.WriteString(`<a href="` + html.EscapeString(u) + `" rel="noopener noreferrer">`)
				esc(n.Label(source))
				b.WriteString("</a>")
			} else {
				esc(n.Label(source))
			}
		case *ast.Image:
			b.WriteString("[image: ")
			children(n)
			b.WriteString(" (")
			esc(n.Destination)
			b.WriteString(")]")
		case *ast.RawHTML:
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				esc(seg.Value(source))
			}
		default:
			children(n)
		}
	}
	walk(doc)
	return template.HTML(b.String())
}

// notesMarkdown writes notes as Markdown the report controls: text is
// Escaped with mdText, code with mdCode and fences, headings start below
// the report's own, and only safe links stay links.
func notesMarkdown(src string) string {
	if strings.TrimSpace(src) == "" {
		return ""
	}
	doc, source := parseNotes(src)
	out := &bytes.Buffer{}
	var inline func(n ast.Node) string
	inlines := func(n ast.Node) string {
		var s strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			s.WriteString(inline(c))
		}
		return s.String()
	}
	raw := func(n ast.Node) string {
		var s strings.Builder
		ls := n.Lines()
		for i := 0; i < ls.Len(); i++ {
			seg := ls.At(i)
			s.Write(seg.Value(source))
		}
		return s.String()
	}
	inline = func(n ast.Node) string {
		switch n := n.(type) {
		case *ast.Text:
			s := mdEscape(string(n.Segment.Value(source)))
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
			var s strings.Builder
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					s.Write(t.Segment.Value(source))
				}
			}
			return mdCode(s.String())
		case *ast.Emphasis:
			mark := "_"
			if n.Level >= 2 {
				mark = "**"
			}
			return mark + inlines(n) + mark
		case *ast.Link:
			if u, ok := safeURL(string(n.Destination)); ok {
				return "[" + inlines(n) + "](" + mdURL(u) + ")"
			}
			return inlines(n) + " (" + mdCode(string(n.Destination)) + ")"
		case *ast.AutoLink:
			if u, ok := safeURL(string(n.URL(source))); ok {
				return "[" + mdEscape(string(n.Label(source))) + "](" + mdURL(u) + ")"
			}
			return mdEscape(string(n.Label(source)))
		case *ast.Image:
			return "\\[image: " + inlines(n) + " (" + mdCode(string(n.Destination)) + ")\\]"
		case *ast.RawHTML:
			var s strings.Builder
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				s.Write(seg.Value(source))
			}
			return mdEscape(s.String())
		}
		return inlines(n)
	}
	var block func(n ast.Node, prefix string)
	para := func(text, prefix string) {
		for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			out.WriteString(strings.TrimRight(prefix+l, " ") + "\n")
		}
	}
	blocks := func(n ast.Node, prefix string) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			block(c, prefix)
			if c.NextSibling() != nil && c.Kind() != ast.KindTextBlock {
				out.WriteString(strings.TrimRight(prefix, " ") + "\n")
			}
		}
	}
	block = func(n ast.Node, prefix string) {
		switch n := n.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			para(inlines(n), prefix)
		case *ast.Heading:
			para(strings.Repeat("#", min(n.Level+3, 6))+" "+strings.ReplaceAll(inlines(n), "\n", " "), prefix)
		case *ast.Blockquote:
			blocks(n, prefix+"> ")
		case *ast.List:
			i := n.Start
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				marker := "- "
				if n.IsOrdered() {
					marker = strconv.Itoa(i) + ". "
					i++
				}
				saved := out
				out = &bytes.Buffer{}
				blocks(c, "")
				item := out
				out = saved
				for j, l := range strings.Split(strings.TrimRight(item.String(), "\n"), "\n") {
					lead := strings.Repeat(" ", len(marker))
					if j == 0 {
						lead = marker
					}
					out.WriteString(strings.TrimRight(prefix+lead+l, " ") + "\n")
				}
			}
		case *ast.ThematicBreak:
			para("---", prefix)
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			code := raw(n)
			if hb, ok := n.(*ast.HTMLBlock); ok && hb.HasClosure() {
				code += string(hb.ClosureLine.Value(source))
			}
			md := &mdWriter{&bytes.Buffer{}}
			md.fence(strings.TrimRight(code, "\n"), "")
			para(md.b.String(), prefix)
		default:
			blocks(n, prefix)
		}
	}
	blocks(doc, "")
	return out.String()
}

// mdURL is a safe URL as a Markdown link destination: safeURL allows no
// space, angle bracket or quote; parentheses are percent-encoded so none
// ends the destination.
func mdURL(u string) string {
	return strings.NewReplacer("(", "%28", ")", "%29").Replace(u)
}
