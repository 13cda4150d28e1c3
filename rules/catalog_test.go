package rules

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/lockaudit/lockaudit/internal/golden"
)

// catalog.yaml is the rule catalog's source; catalog_data.go is the same
// data as Go, so that no command parses YAML to start. This file reads the
// YAML strictly, checks it, and writes the Go: `go test ./rules -update`
// after editing the catalog.

type catalogFile struct {
	Definitions []Definition `yaml:"definitions"`
	Rules       []Rule       `yaml:"rules"`
}

// loaded is the catalog read from YAML and checked.
type loaded struct {
	rules       []Rule
	definitions []Definition
}

// load reads and checks a catalog: unknown fields, bad severities and
// versions, duplicate IDs or names (a name may not be another rule's ID),
// definitions without a name, title or text, duplicate definitions, and
// rules that use a definition the catalog does not have.
func load(data []byte) (*loaded, error) {
	var f catalogFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	out := &loaded{rules: f.Rules, definitions: f.Definitions}
	defined := map[string]bool{}
	for _, d := range f.Definitions {
		if d.Name == "" || d.Title == "" || strings.TrimSpace(d.Text) == "" {
			return nil, fmt.Errorf("definition %q: name, title and text are required", d.Name)
		}
		if defined[d.Name] {
			return nil, fmt.Errorf("duplicate definition %s", d.Name)
		}
		defined[d.Name] = true
	}
	for _, r := range f.Rules {
		if _, err := ParsePath(r.Verdict); r.Verdict != "" && err != nil {
			return nil, fmt.Errorf("rule %s: verdict: %v", r.ID, err)
		}
		if (r.Verdict != "" || r.Declared || len(r.Recommends) > 0) && r.Kind != Node {
			return nil, fmt.Errorf("rule %s: verdict, declared and recommends are for node rules", r.ID)
		}
		for _, rec := range r.Recommends {
			if rec.Setting == "" || rec.Value == "" || rec.Cost == "" || rec.NotWhen == "" {
				return nil, fmt.Errorf("rule %s: recommends: a setting, a value, its cost and when not to use it (not_when) are required", r.ID)
			}
		}
		for _, u := range r.Uses {
			if !defined[u] {
				return nil, fmt.Errorf("rule %s uses an unknown definition %q", r.ID, u)
			}
		}
	}
	sort.SliceStable(out.rules, func(i, j int) bool { return out.rules[i].ID < out.rules[j].ID })
	seen := map[string]bool{}
	for _, r := range out.rules {
		for _, key := range []string{string(r.ID), strings.ToUpper(r.Name)} {
			if key == "" {
				continue
			}
			if seen[key] {
				return nil, fmt.Errorf("duplicate rule ID or name %s", key)
			}
			seen[key] = true
		}
	}
	return out, nil
}

func readCatalog(t *testing.T) *loaded {
	t.Helper()
	data, err := os.ReadFile("catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l, err := load(data)
	if err != nil {
		t.Fatalf("catalog.yaml: %v", err)
	}
	return l
}

// TestCatalogData: catalog_data.go is catalog.yaml written as Go (with
// -update it is rewritten), and the package serves exactly that data.
func TestCatalogData(t *testing.T) {
	l := readCatalog(t)
	golden.Check(t, "catalog_data.go", generate(t, l))
	if *golden.Update {
		return // the package still holds the old data until it is compiled again
	}
	if !reflect.DeepEqual(catalog, l.rules) || !reflect.DeepEqual(definitions, l.definitions) {
		t.Errorf("the compiled catalog differs from catalog.yaml: run go test ./rules -update")
	}
}

// generate writes the catalog as Go source.
func generate(t *testing.T, l *loaded) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated from catalog.yaml by `go test ./rules -update`. DO NOT EDIT.\n\npackage rules\n\n")
	b.WriteString("// The rule IDs, one constant per rule: code names a rule by these.\nconst (\n")
	for _, r := range l.rules {
		if !token.IsIdentifier(string(r.ID)) {
			t.Fatalf("rule ID %q is not a Go identifier: it cannot name its constant", r.ID)
		}
		fmt.Fprintf(&b, "%s ID = %q // %s\n", r.ID, r.ID, r.Name)
	}
	b.WriteString(")\n\n")
	b.WriteString("// catalog is every rule, sorted by ID.\nvar catalog = []Rule{\n")
	rt := reflect.TypeFor[Rule]()
	for _, r := range l.rules {
		b.WriteString("{\n")
		rv := reflect.ValueOf(r)
		for i := range rt.NumField() {
			if v := rv.Field(i); !v.IsZero() {
				fmt.Fprintf(&b, "%s: %s,\n", rt.Field(i).Name, goValue(t, v))
			}
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n// definitions are the terms several rules rely on, in catalog order.\nvar definitions = []Definition{\n")
	for _, d := range l.definitions {
		fmt.Fprintf(&b, "{\nName: %s,\nTitle: %s,\nText: %s,\n},\n", goString(d.Name), goString(d.Title), goString(d.Text))
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatalf("generated Go does not parse: %v\n%s", err, b.Bytes())
	}
	return src
}

// goValue writes a Rule field's value as a Go expression.
func goValue(t *testing.T, v reflect.Value) string {
	switch x := v.Interface().(type) {
	case Severity:
		return map[Severity]string{Info: "Info", Warning: "Warning", Error: "Error"}[x]
	case Kind:
		return map[Kind]string{Code: "Code", Node: "Node"}[x]
	case ID:
		return string(x) // its constant
	case string:
		return goString(x)
	case bool:
		return strconv.FormatBool(x)
	case []Recommendation:
		parts := make([]string, len(x))
		for i, r := range x {
			parts[i] = fmt.Sprintf("{%q, %q, %q, %q}", r.Setting, r.Value, r.Cost, r.NotWhen)
		}
		return "[]Recommendation{" + strings.Join(parts, ", ") + "}"
	case []string:
		parts := make([]string, len(x))
		for i, s := range x {
			parts[i] = strconv.Quote(s)
		}
		return "[]string{" + strings.Join(parts, ", ") + "}"
	}
	t.Fatalf("catalog_test.go cannot write a %s as Go yet: teach goValue", v.Type())
	return ""
}

// goString is a raw string for multi-line text (readable in review), else
// a quoted one.
func goString(s string) string {
	if strings.Contains(s, "\n") && !strings.ContainsAny(s, "`\r") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

func TestLoadRejectsBadCatalog(t *testing.T) {
	for name, src := range map[string]string{
		"unknown field":    "rules:\n  - id: LA101\n    colour: red\n",
		"bad severity":     "rules:\n  - id: LA101\n    severity: fatal\n",
		"duplicate":        "rules:\n  - id: LA101\n  - id: LA101\n",
		"same name":        "rules:\n  - id: LA101\n    name: a-b\n  - id: LA102\n    name: a-b\n",
		"name is an ID":    "rules:\n  - id: LA101\n    name: la102\n  - id: LA102\n    name: b\n",
		"unknown use":      "rules:\n  - id: LA101\n    uses: [nope]\n",
		"unknown verdict":  "rules:\n  - id: LA201\n    kind: node\n    verdict: nope\n",
		"code verdict":     "rules:\n  - id: LA101\n    kind: code\n    verdict: lua\n",
		"empty recommends": "rules:\n  - id: LA204\n    kind: node\n    recommends: [{setting: appendonly}]\n",
		"empty definition": "definitions:\n  - name: x\n    title: X\n",
		"same definition":  "definitions:\n  - {name: x, title: X, text: t}\n  - {name: x, title: Y, text: u}\n",
	} {
		if _, err := load([]byte(src)); err == nil {
			t.Errorf("%s: load accepted %q", name, src)
		}
	}
}
