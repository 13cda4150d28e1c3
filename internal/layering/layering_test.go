package layering

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/lockaudit/lockaudit"

// rule is one import rule: no package under from (a package path below
// the module, "" the whole module; with exact, that package alone) other
// than those under except may depend, directly or not, on one under any
// of banned (module-relative, or one of renderers), except those under
// allowed.
type rule struct {
	why     string
	from    string
	exact   bool
	banned  []string
	allowed []string
	except  []string
}

// renderers are the packages outside the module that only report's
// renderers (report/render) need: the model, and the analyzers (and so go
// vet and golangci-lint), must not carry them.
var renderers = []string{"github.com/yuin/goldmark", "github.com/olekukonko/tablewriter", "html/template", "text/template"}

var importRules = []rule{
	{"rules imports nothing of ours", "rules", true, []string{"report", "analyzers", "probe", "cmd", "internal"}, nil, nil},
	{"the catalog's helpers import only the catalog and internal helpers", "rules/", false, []string{"report", "analyzers", "probe", "cmd"}, nil, nil},
	{"report imports neither the analyzers nor the probe", "report", false, []string{"analyzers", "probe", "cmd"}, nil, nil},
	{"the model imports neither its renderers nor what they need", "report", false, append([]string{"report/render"}, renderers...), nil, []string{"report/render"}},
	{"only the command imports the renderers", "", false, []string{"report/render"}, nil, []string{"cmd", "report/render"}},
	{"the analyzers never import the probe", "analyzers", false, []string{"probe", "cmd"}, nil, nil},
	{"the analyzers depend on the model's leaf types only, never on report's renderers", "analyzers", false, append([]string{"report", "codehalf"}, renderers...), []string{"report/finding"}, nil},
	{"the model's leaf types import only the catalog", "report/finding", false, append([]string{"report", "analyzers", "probe", "cmd"}, renderers...), []string{"report/finding"}, nil},
	{"the probe never imports the analyzers", "probe", false, []string{"analyzers", "cmd"}, nil, nil},
}

// under reports whether pkg (relative to the module) is dir or below it;
// a dir ending in "/" matches only below it, and "" matches every package.
func under(pkg, dir string) bool {
	if dir == "" {
		return true
	}
	if strings.HasSuffix(dir, "/") {
		return strings.HasPrefix(pkg, dir)
	}
	return pkg == dir || strings.HasPrefix(pkg, dir+"/")
}

// violations lists every dependency that breaks a rule: deps maps each of
// our packages to the packages it depends on (module-relative paths).
func violations(deps map[string][]string) []string {
	var out []string
	for _, r := range importRules {
		for pkg, ds := range deps {
			if r.exact && pkg != r.from || !r.exact && !under(pkg, r.from) || slices.ContainsFunc(r.except, func(e string) bool { return under(pkg, e) }) {
				continue
			}
			for _, d := range ds {
				for _, b := range r.banned {
					if under(d, b) && !slices.ContainsFunc(r.allowed, func(a string) bool { return under(d, a) }) {
						out = append(out, pkg+" depends on "+d+": "+r.why)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// ourDeps asks go list for every package of the module and what it
// depends on (the transitive closure, as `go list -deps` gives it), test
// files left out: our packages module-relative, and the renderers' own
// dependencies by their import paths.
func ourDeps(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg, ok := strings.CutPrefix(f[0], module+"/")
		if !ok {
			continue
		}
		for _, d := range f[1:] {
			if rel, ok := strings.CutPrefix(d, module+"/"); ok {
				deps[pkg] = append(deps[pkg], rel)
			} else if slices.ContainsFunc(renderers, func(r string) bool { return under(d, r) }) {
				deps[pkg] = append(deps[pkg], d)
			}
		}
		if _, ok := deps[pkg]; !ok {
			deps[pkg] = nil
		}
	}
	return deps
}

func TestImportRules(t *testing.T) {
	deps := ourDeps(t)
	for _, must := range []string{"rules", "report", "report/join", "analyzers/uses", "report/finding", "report/render", "codehalf", "probe", "probe/inventory", "cmd/lockaudit"} {
		if _, ok := deps[must]; !ok {
			t.Fatalf("go list did not list %s: %v", must, deps)
		}
	}
	for _, v := range violations(deps) {
		t.Error(v)
	}
	// The command is where the halves meet: it depends on both.
	cmd := deps["cmd/lockaudit"]
	if !slices.ContainsFunc(cmd, func(d string) bool { return under(d, "analyzers") }) || !slices.ContainsFunc(cmd, func(d string) bool { return under(d, "probe") }) {
		t.Errorf("cmd/lockaudit does not compose the analyzers and the probe: %v", cmd)
	}
}

// TestViolationsFound: the check reports each kind of broken rule.
func TestViolationsFound(t *testing.T) {
	got := violations(map[string][]string{
		"rules":           {"internal/secret"},
		"rules/config":    {"rules", "internal/secret", "report"},
		"report/join":     {"report", "rules", "probe"},
		"analyzers/la101": {"analyzers/internal/resolve", "probe/inventory"},
		"probe/scan":      {"probe", "analyzers/uses"},
		"reporting":       {"probe"}, // not under report
		"cmd/lockaudit":   {"analyzers/uses", "probe", "report/render"},
		// The renderers' own imports are theirs; the model and the probe
		// may not reach them.
		"report/render": {"report", "github.com/yuin/goldmark", "html/template"},
		"report":        {"rules", "text/template"},
		"probe/watch":   {"report", "report/render"},
		// The deliberate violations of the analyzers' model-only rule:
		// ruleutil back on report (and so goldmark), the plugin on the
		// code-half pipeline; the driver's leaf types are allowed.
		"analyzers/internal/ruleutil": {"report/finding", "report", "github.com/yuin/goldmark/parser"},
		"analyzers/golangci":          {"codehalf", "html/template"},
		"analyzers/driver":            {"report/finding", "rules"},
		"report/finding":              {"rules", "text/template"},
	})
	const modelOnly = ": the analyzers depend on the model's leaf types only, never on report's renderers"
	want := []string{
		"analyzers/golangci depends on codehalf" + modelOnly,
		"analyzers/golangci depends on html/template" + modelOnly,
		"analyzers/internal/ruleutil depends on github.com/yuin/goldmark/parser" + modelOnly,
		"analyzers/internal/ruleutil depends on report" + modelOnly,
		"analyzers/la101 depends on probe/inventory: the analyzers never import the probe",
		"probe/scan depends on analyzers/uses: the probe never imports the analyzers",
		"probe/watch depends on report/render: only the command imports the renderers",
		"report depends on text/template: the model imports neither its renderers nor what they need",
		"report/finding depends on text/template: the model imports neither its renderers nor what they need",
		"report/finding depends on text/template: the model's leaf types import only the catalog",
		"report/join depends on probe: report imports neither the analyzers nor the probe",
		"rules depends on internal/secret: rules imports nothing of ours",
		"rules/config depends on report: the catalog's helpers import only the catalog and internal helpers",
	}
	sameViolations(t, got, want)
}

// TestOnlyCmdImportsRenderers: a package other than the command that
// imports the renderers — the probe's watch, the code half, the model
// itself — breaks the rule; the command and the renderers' own tests
// (not in go list's graph) do not.
func TestOnlyCmdImportsRenderers(t *testing.T) {
	got := violations(map[string][]string{
		"probe/watch":   {"report", "report/render"},
		"codehalf":      {"report", "report/render"},
		"report":        {"rules", "report/render"},
		"cmd/lockaudit": {"report", "report/render"},
		"report/render": {"report", "html/template"},
	})
	want := []string{
		"codehalf depends on report/render: only the command imports the renderers",
		"probe/watch depends on report/render: only the command imports the renderers",
		"report depends on report/render: only the command imports the renderers",
		"report depends on report/render: the model imports neither its renderers nor what they need",
	}
	sameViolations(t, got, want)
}

func sameViolations(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
