package driver

// Facts without loading every dependency from source.
//
// The lockaudit layers that use go/analysis facts (resolve: wrapper
// summaries; origin: token sources) need them only from a few packages:
// those on an import path to a known client (they may hold wrappers), and
// the analysed modules' own helper packages that draw random values (they
// may make tokens). go/analysis/checker would run a fact-using analyzer on
// every dependency, loaded from source (packages.LoadAllSyntax), the
// standard library included: several times the cost of the run. Instead
// the packages are loaded as without facts (the patterns from source, the
// dependencies from export data); when some dependency needs facts, they
// are loaded again with those dependencies among the patterns, so that
// they come from source too; and the checker is given a view of the
// import graph that keeps only the source-loaded packages, so facts flow
// between exactly those.

import (
	"context"
	"sort"

	"golang.org/x/tools/go/packages"

	"github.com/lockaudit/lockaudit/analyzers/internal/origin"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
)

// factDeps lists the dependencies of the loaded roots (not roots
// themselves) that fact-using analyzers need from source:
//
//   - packages that import a known client, directly or through other
//     packages, outside the client's own module: they may hold wrappers
//     (the client modules' own packages are the knowledge table's);
//   - packages that import a random source (origin.IsRandomSource),
//     imported by a package that reaches a client, of an analysed module
//     or, imported by such a package of an analysed module, of any other
//     (a project's shared helper module): helpers that may draw lock
//     tokens. The standard library is never among them.
func factDeps(roots []*packages.Package) []string {
	isRoot := map[*packages.Package]bool{}
	rootMods := map[string]bool{}
	for _, p := range roots {
		isRoot[p] = true
		if p.Module != nil {
			rootMods[p.Module.Path] = true
		}
	}
	clientMods := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if resolve.IsClientPackage(p.PkgPath) && p.Module != nil {
			clientMods[p.Module.Path] = true
		}
	})
	reach := map[*packages.Package]bool{}
	var reaches func(p *packages.Package) bool
	reaches = func(p *packages.Package) bool {
		if v, ok := reach[p]; ok {
			return v
		}
		reach[p] = false // cycles cannot happen; this guards a bad graph
		v := resolve.IsClientPackage(p.PkgPath)
		for _, imp := range p.Imports {
			if reaches(imp) {
				v = true
			}
		}
		reach[p] = v
		return v
	}
	need := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if !reaches(p) {
			return
		}
		own := p.Module == nil || !clientMods[p.Module.Path]
		if !isRoot[p] && own && !resolve.IsClientPackage(p.PkgPath) {
			need[p.PkgPath] = true
		}
		if !isRoot[p] && !own {
			return
		}
		inRootMod := p.Module != nil && rootMods[p.Module.Path]
		for _, imp := range p.Imports {
			if isRoot[imp] || imp.Module == nil || clientMods[imp.Module.Path] || !(rootMods[imp.Module.Path] || inRootMod) {
				continue
			}
			if randomSource(imp) {
				need[imp.PkgPath] = true
			}
		}
	})
	out := make([]string, 0, len(need))
	for path := range need {
		out = append(out, path)
	}
	sort.Strings(out)
	return out
}

// randomSource reports whether a package imports a random source.
func randomSource(p *packages.Package) bool {
	for path := range p.Imports {
		if origin.IsRandomSource(path) {
			return true
		}
	}
	return false
}

// loadForFacts loads the packages for fact-using analyzers: roots are the
// packages of a first load; when some dependencies need facts (factDeps),
// the patterns are loaded again with those added, and the roots of the
// first load are picked from the second. It returns the roots and the
// view of the import graph the checker is to run on (factView).
func loadForFacts(ctx context.Context, cfg *packages.Config, patterns []string, roots []*packages.Package) ([]*packages.Package, error) {
	extra := factDeps(roots)
	if len(extra) == 0 {
		return factView(roots, nil), nil
	}
	ids := map[string]bool{}
	for _, p := range roots {
		ids[p.ID] = true
	}
	all, err := packages.Load(cfg, append(append([]string(nil), patterns...), extra...)...)
	if err != nil {
		return nil, err
	}
	var again []*packages.Package
	deps := map[string]bool{}
	for _, path := range extra {
		deps[path] = true
	}
	for _, p := range all {
		if ids[p.ID] {
			again = append(again, p)
		}
	}
	if len(again) != len(roots) {
		// The second load does not match the first (the tree changed in
		// between): analyse the first load, without the extra facts.
		return factView(roots, nil), nil
	}
	return factView(again, deps), nil
}

// factView returns copies of the roots whose Imports keep only the
// packages the checker may run fact-using analyzers on: other roots and
// the source-loaded dependencies listed in deps (by path), recursively.
// The checker runs such analyzers on every package in Imports, and a
// package loaded from export data has no syntax to run them on.
func factView(roots []*packages.Package, deps map[string]bool) []*packages.Package {
	keep := map[*packages.Package]bool{}
	for _, p := range roots {
		keep[p] = true
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if deps[p.PkgPath] && p.Syntax != nil && p.TypesInfo != nil && !p.IllTyped {
			keep[p] = true
		}
	})
	copies := map[*packages.Package]*packages.Package{}
	var view func(p *packages.Package) *packages.Package
	view = func(p *packages.Package) *packages.Package {
		if c := copies[p]; c != nil {
			return c
		}
		c := new(packages.Package)
		*c = *p
		copies[p] = c
		c.Imports = map[string]*packages.Package{}
		for path, imp := range p.Imports {
			if keep[imp] {
				c.Imports[path] = view(imp)
			}
		}
		return c
	}
	out := make([]*packages.Package, len(roots))
	for i, p := range roots {
		out[i] = view(p)
	}
	return out
}
