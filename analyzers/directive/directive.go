// Package directive reads //lockaudit:ignore and //lockaudit:file-ignore
// comments and applies them to findings. As in staticcheck, a reason is
// required and a directive that suppresses nothing is reported; as in gosec,
// the reason travels with the suppressed finding (into SARIF).
//
//	rdb.Del(ctx, key) //lockaudit:ignore LA103 -- admin reset, holder is dead
//	//lockaudit:ignore LA103,LA114 -- reason      (suppresses the next line)
//	//lockaudit:file-ignore LA101 -- reason       (suppresses the whole file)
package directive

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/lockaudit/lockaudit/report/finding"
	"github.com/lockaudit/lockaudit/rules"
)

// RuleID is the catalog rule for bad and stale directives.
const RuleID = rules.LA100

// Directive is one parsed comment.
type Directive struct {
	File   bool     // file-ignore
	Rules  []string // upper-case rule IDs
	Reason string
	Pos    finding.Position // of the comment
	Err    string           // why it is malformed ("" when well-formed)
	used   bool
}

const (
	prefixLine = "//lockaudit:ignore"
	prefixFile = "//lockaudit:file-ignore"
)

// Parse reads one comment's text (with its // marker). ok is false when the
// comment is not a lockaudit directive at all.
func Parse(text string) (d Directive, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(text, prefixFile):
		d.File, rest = true, text[len(prefixFile):]
	case strings.HasPrefix(text, prefixLine):
		rest = text[len(prefixLine):]
	case strings.HasPrefix(text, "//lockaudit:"):
		word, _, _ := strings.Cut(text[2:], " ")
		d.Err = fmt.Sprintf("unknown directive %q (want //lockaudit:ignore or //lockaudit:file-ignore)", word)
		return d, true
	default:
		return d, false
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return d, false // e.g. //lockaudit:ignored — not ours
	}
	ids, reason, hasReason := strings.Cut(rest, "--")
	d.Reason = strings.TrimSpace(reason)
	for _, id := range strings.FieldsFunc(ids, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		d.Rules = append(d.Rules, strings.ToUpper(id))
	}
	switch {
	case len(d.Rules) == 0:
		d.Err = "names no rule (write //lockaudit:ignore LA103 -- reason)"
	case !hasReason || d.Reason == "":
		d.Err = fmt.Sprintf("has no reason (write %s -- why this is fine)", strings.Join(d.Rules, ","))
	}
	for i, id := range d.Rules {
		r, ok := rules.Lookup(id) // an ID or a name (plain-del-release)
		if !ok || r.Kind != rules.Code || r.ID == RuleID {
			d.Err = fmt.Sprintf("names unknown rule %q", id)
			continue
		}
		d.Rules[i] = string(r.ID)
	}
	return d, true
}

// Collect returns the directives in a file; rel turns a token position
// into the report's module-relative position.
func Collect(f *ast.File, rel func(token.Pos) finding.Position) []*Directive {
	var out []*Directive
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if d, ok := Parse(c.Text); ok {
				d.Pos = rel(c.Slash)
				out = append(out, &d)
			}
		}
	}
	return out
}

// Apply marks the findings that well-formed directives suppress (a line
// directive covers its own line and the next; a file directive its file),
// and returns LA100 findings for malformed directives and for directives
// that suppressed nothing. Findings of rules not in ran are never counted
// against a directive's staleness, so running a subset of rules does not
// make the others' directives look stale.
func Apply(findings []finding.Finding, dirs []*Directive, ran map[string]bool) []finding.Finding {
	byFile := map[string][]*Directive{}
	for _, d := range dirs {
		if d.Err == "" {
			byFile[d.Pos.File] = append(byFile[d.Pos.File], d)
		}
	}
	for i := range findings {
		f := &findings[i]
		if f.Pos == nil || f.Suppressed != nil || f.Rule == RuleID {
			continue
		}
		for _, d := range byFile[f.Pos.File] {
			if !d.covers(f) {
				continue
			}
			d.used = true
			f.Suppressed = &finding.Suppression{Kind: "inSource", Justification: d.Reason}
			break
		}
	}
	sev := rules.MustGet(RuleID).Severity
	var out []finding.Finding
	for _, d := range dirs {
		pos := d.Pos
		switch {
		case d.Err != "":
			out = append(out, finding.Finding{Rule: RuleID, Severity: sev, Pos: &pos, Message: "lockaudit directive " + d.Err})
		case !d.used && d.ranAny(ran):
			out = append(out, finding.Finding{Rule: RuleID, Severity: sev, Pos: &pos,
				Message: fmt.Sprintf("lockaudit directive suppresses nothing: no %s finding here; remove it", strings.Join(d.Rules, "/"))})
		}
	}
	return out
}

func (d *Directive) covers(f *finding.Finding) bool {
	if !d.File && f.Pos.Line != d.Pos.Line && f.Pos.Line != d.Pos.Line+1 {
		return false
	}
	for _, id := range d.Rules {
		if id == string(f.Rule) {
			return true
		}
	}
	return false
}

func (d *Directive) ranAny(ran map[string]bool) bool {
	if ran == nil {
		return true
	}
	for _, id := range d.Rules {
		if ran[id] {
			return true
		}
	}
	return false
}
