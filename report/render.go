package report

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Renderer writes a Run in one format. Renderers only read the Run.
type Renderer func(w io.Writer, r *Run, o Options) error

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
// a visible escape. JSON and SARIF keep the exact strings (jsonEscaper).
var terminalFormats = map[string]bool{"text": true, "markdown": true, "html": true, "github": true}

// Render writes r in the named format.
func Render(w io.Writer, r *Run, format string) error { return RenderWith(w, r, format, Options{}) }

// RenderWith writes r in the named format with options.
func RenderWith(w io.Writer, r *Run, format string, o Options) error {
	fn, ok := renderers[format]
	if !ok {
		return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats(), ", "))
	}
	// IDs and risk first: an ID derives from the module-relative path.
	r = r.prepared()
	if o.PathPrefix != "" {
		r = r.withPathPrefix(o.PathPrefix)
	}
	if terminalFormats[format] {
		r = r.escaped()
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

// CleanPathPrefix checks a -path-prefix and returns it slash-separated
// and clean ("" and "." are no prefix). It must be relative and stay
// below the root it is taken from.
func CleanPathPrefix(p string) (string, error) {
	p = path.Clean(filepath.ToSlash(p))
	switch {
	case p == ".":
		return "", nil
	case path.IsAbs(p) || filepath.IsAbs(p) || strings.HasPrefix(p, "../") || p == "..":
		return "", fmt.Errorf("%q must be a relative path inside the repository (the module's folder, e.g. services/orders)", p)
	}
	return p, nil
}

// withPathPrefix returns a copy of r whose source paths start with
// prefix (CleanPathPrefix'd by the caller).
func (r *Run) withPathPrefix(prefix string) *Run {
	prefix = strings.TrimSuffix(prefix, "/") + "/"
	pos := func(p *Position) *Position {
		if p == nil {
			return nil
		}
		q := *p
		q.File = prefix + q.File
		return &q
	}
	c := *r
	c.Findings = make([]Finding, len(r.Findings))
	for i, f := range r.Findings {
		f.Pos = pos(f.Pos)
		c.Findings[i] = f
	}
	c.Uses = make([]Use, len(r.Uses))
	for i, u := range r.Uses {
		sites := make([]Site, len(u.Sites))
		for j, s := range u.Sites {
			s.Pos = *pos(&s.Pos)
			sites[j] = s
		}
		u.Sites = sites
		c.Uses[i] = u
	}
	if r.Uses == nil {
		c.Uses = nil
	}
	if r.Verdict != nil {
		v := *r.Verdict
		v.Paths = make([]PathVerdict, len(r.Verdict.Paths))
		for i, pv := range r.Verdict.Paths {
			checks := make([]Check, len(pv.Checks))
			for j, c := range pv.Checks {
				if c.Sites != nil {
					sites := make([]Site, len(c.Sites))
					for k, s := range c.Sites {
						s.Pos = *pos(&s.Pos)
						sites[k] = s
					}
					c.Sites = sites
				}
				checks[j] = c
			}
			if pv.Checks == nil {
				checks = nil
			}
			pv.Checks = checks
			v.Paths[i] = pv
		}
		c.Verdict = &v
	}
	if r.Since != nil {
		since := *r.Since
		since.Findings = make([]FindingChange, len(r.Since.Findings))
		for i, f := range r.Since.Findings {
			f.Finding.Pos = pos(f.Finding.Pos)
			since.Findings[i] = f
		}
		c.Since = &since
	}
	return &c
}
