package report

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

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

// WithPathPrefix returns a copy of r whose source paths start with
// prefix (CleanPathPrefix'd by the caller).
func (r *Run) WithPathPrefix(prefix string) *Run {
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
