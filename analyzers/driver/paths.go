package driver

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// pathMapper makes file names relative to their module's root, so reports
// read the same on every machine, and reads source lines for them.
type pathMapper struct {
	dir     string
	modules []module // longest Dir first
	lines   map[string][]string
}

type module struct {
	dir, prefix string // prefix is "" for a main module, "path@version/" otherwise
}

func newPathMapper(dir string, pkgs []*packages.Package) *pathMapper {
	m := &pathMapper{dir: dir, lines: map[string][]string{}}
	seen := map[string]bool{}
	for _, p := range pkgs {
		mod := p.Module
		if mod == nil || mod.Dir == "" || seen[mod.Dir] {
			continue
		}
		seen[mod.Dir] = true
		prefix := ""
		if !mod.Main {
			prefix = mod.Path + "/"
			if mod.Version != "" {
				prefix = mod.Path + "@" + mod.Version + "/"
			}
		}
		m.modules = append(m.modules, module{dir: mod.Dir, prefix: prefix})
	}
	sort.Slice(m.modules, func(i, j int) bool { return len(m.modules[i].dir) > len(m.modules[j].dir) })
	return m
}

// rel maps an absolute file name to a slash-separated path relative to its
// main module's root; files of other modules get "module@version/" in
// front; files outside any module are made relative to the run's directory
// when they are below it.
func (m *pathMapper) rel(file string) string {
	for _, mod := range m.modules {
		if r, ok := under(mod.dir, file); ok {
			return mod.prefix + r
		}
	}
	if r, ok := under(m.dir, file); ok {
		return r
	}
	return filepath.ToSlash(file)
}

func under(dir, file string) (string, bool) {
	r, err := filepath.Rel(dir, file)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

var posRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.*?)((?::\d+){1,2})$`) })

// relPos rewrites the file part of a "file:line:col" position.
func (m *pathMapper) relPos(pos string) string {
	s := posRE().FindStringSubmatch(pos)
	if s == nil {
		return pos
	}
	file := s[1]
	if !filepath.IsAbs(file) {
		file = filepath.Join(m.dir, file)
	}
	return m.rel(file) + s[2]
}

// line returns the trimmed text of line n (1-based) of file, or "".
func (m *pathMapper) line(file string, n int) string {
	ls, ok := m.lines[file]
	if !ok {
		data, err := os.ReadFile(file)
		if err == nil {
			ls = strings.Split(string(data), "\n")
		}
		m.lines[file] = ls
	}
	if n < 1 || n > len(ls) {
		return ""
	}
	return strings.TrimSpace(ls[n-1])
}

// unmatched returns the patterns that matched no package. go list turns most
// bad patterns into a package carrying an error; a "..." pattern over a tree
// without Go packages just matches nothing, silently.
func unmatched(patterns []string, dir string, pkgs []*packages.Package) []string {
	var roots []*packages.Package
	for _, p := range pkgs {
		if !isTestMain(p) {
			roots = append(roots, p)
		}
	}
	if len(roots) == 0 {
		return patterns
	}
	if len(patterns) == 1 {
		return nil
	}
	var out []string
	for _, pat := range patterns {
		if !strings.Contains(pat, "...") {
			continue // go list answers a package (maybe with an error) for it
		}
		if !matchesAny(pat, dir, roots) {
			out = append(out, pat)
		}
	}
	return out
}

// matchesAny reports whether a "..." pattern matches one of the packages,
// by directory for relative or absolute patterns and by import path
// otherwise (the rules of `go help packages`).
func matchesAny(pat, dir string, pkgs []*packages.Package) bool {
	switch pat {
	case "all", "std", "cmd", "tool", "work":
		return true
	}
	isPath := pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../") || filepath.IsAbs(pat)
	if isPath {
		abs := pat
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, pat)
		}
		re := patternRE(filepath.ToSlash(abs))
		for _, p := range pkgs {
			if p.ID == pat {
				return true // go list's error package for this very pattern
			}
			for _, d := range pkgDirs(p) {
				if re.MatchString(filepath.ToSlash(d)) {
					return true
				}
			}
			// Packages with no files to locate them (test-only, with Tests
			// off) are matched through their module's import path.
			if p.Module != nil && p.Module.Dir != "" {
				if r, ok := under(p.Module.Dir, abs); ok {
					ip := p.Module.Path
					if r != "." {
						ip += "/" + r
					}
					if patternRE(ip).MatchString(p.PkgPath) {
						return true
					}
				}
			}
		}
		return false
	}
	re := patternRE(pat)
	for _, p := range pkgs {
		if p.ID == pat || re.MatchString(p.PkgPath) {
			return true
		}
	}
	return false
}

func pkgDirs(p *packages.Package) []string {
	seen := map[string]bool{}
	var out []string
	for _, fs := range [][]string{p.GoFiles, p.OtherFiles, p.IgnoredFiles} {
		for _, f := range fs {
			d := filepath.Dir(f)
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// patternRE is cmd/go's matchPattern: "..." matches any string, and a
// trailing "/..." also matches the prefix itself.
func patternRE(pat string) *regexp.Regexp {
	re := regexp.QuoteMeta(pat)
	re = strings.ReplaceAll(re, `\.\.\.`, `.*`)
	if strings.HasSuffix(re, `/.*`) {
		re = re[:len(re)-len(`/.*`)] + `(/.*)?`
	}
	return regexp.MustCompile(`^` + re + `$`)
}
