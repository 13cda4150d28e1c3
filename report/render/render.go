// Package render writes a report.Run (and a comparison, a drill record)
// in each format — text, Markdown, HTML, SARIF, GitHub annotations, and
// the JSON saved-run form the model writes itself — with every sentence
// they print: the views the formats share (view.go), the client's report,
// the plan and the notes. Only the command imports it (internal/layering).
package render

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lockaudit/lockaudit/report"
)

// Renderer writes a Run in one format. Renderers only read the Run.
type Renderer func(w io.Writer, r *report.Run, o Options) error

// Options change how a format shows a run, never what the run says (its
// exit status and summary stay the run's).
type Options struct {
	// ShowSuppressed: the text format also prints suppressed code
	// findings, each message ending with its suppression (vet, audit,
	// preflight -show-suppressed). The other formats always carry them.
	ShowSuppressed bool
	// Color: the text format marks severities and verdict words with
	// ANSI colours (a terminal; -color). The other formats ignore it.
	Color bool
	// PathPrefix, when set, is put in front of every source path (the
	// findings', the uses', the comparison's), in every format: a module
	// in a subfolder of its repository then gets paths from the
	// repository's root, as code scanning and annotations need (-path-prefix).
	PathPrefix string
}

var renderers = map[string]Renderer{}

// json is the saved-run format, the model's own (report.WriteJSON).
func init() {
	registerFormat("json", func(w io.Writer, r *report.Run, _ Options) error { return report.WriteJSON(w, r) })
}

// registerFormat is called from each renderer file's init.
func registerFormat(name string, fn Renderer) {
	if _, dup := renderers[name]; dup {
		panic("report: duplicate format " + name)
	}
	renderers[name] = fn
}

// Formats lists the registered format names, sorted.
func Formats() []string {
	var out []string
	for n := range renderers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// terminalFormats are the formats a person reads as they are, on a
// terminal, in a viewer, a browser or a CI job's log: they get the run with
// every string escaped (see Escape), so a control or bidi character shows as
// a visible escape. JSON and SARIF keep the exact strings (jsonstream.Escaper).
var terminalFormats = map[string]bool{"text": true, "markdown": true, "html": true, "github": true}

// Render writes r in the named format.
func Render(w io.Writer, r *report.Run, format string) error {
	return RenderWith(w, r, format, Options{})
}

// RenderWith writes r in the named format with options.
func RenderWith(w io.Writer, r *report.Run, format string, o Options) error {
	fn, ok := renderers[format]
	if !ok {
		return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats(), ", "))
	}
	// IDs and risk first: an ID derives from the module-relative path.
	r = r.Prepared()
	if o.PathPrefix != "" {
		r = r.WithPathPrefix(o.PathPrefix)
	}
	if terminalFormats[format] {
		r = r.Escaped()
	}
	return fn(w, r, o)
}

// reportBuffer is where a renderer that builds its whole output before
// writing it (so that an error never leaves half a report) builds it: w
// itself when the caller already collects the output in a buffer (the
// commands do, to write every report or none), so a large report is held
// once, not twice. done writes the output to w, or after an error takes
// back what was built.
func reportBuffer(w io.Writer) (b *bytes.Buffer, done func(error) error) {
	if b, ok := w.(*bytes.Buffer); ok {
		mark := b.Len()
		return b, func(err error) error {
			if err != nil {
				b.Truncate(mark)
			}
			return err
		}
	}
	b = new(bytes.Buffer)
	return b, func(err error) error {
		if err == nil {
			_, err = w.Write(b.Bytes())
		}
		return err
	}
}

// FormatFromPath picks a format from a file name's extension: .json, .sarif,
// .md, .html/.htm, .txt.
func FormatFromPath(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return "json", nil
	case ".sarif":
		return "sarif", nil
	case ".md", ".markdown":
		return "markdown", nil
	case ".html", ".htm":
		return "html", nil
	case ".txt", ".text":
		return "text", nil
	}
	return "", fmt.Errorf("cannot tell the format of %q from its extension (use .json, .sarif, .md, .html or .txt, or -format)", path)
}
