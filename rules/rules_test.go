package rules

import (
	"regexp"
	"strings"
	"testing"
)

func TestCatalogComplete(t *testing.T) {
	idRE := regexp.MustCompile(`^LA[12]\d{2}$`)
	nameRE := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	seen := map[string]bool{}
	for _, r := range All() {
		if !idRE.MatchString(string(r.ID)) {
			t.Errorf("%s: ID does not match %s", r.ID, idRE)
		}
		if seen[r.Name] {
			t.Errorf("%s: duplicate name %s", r.ID, r.Name)
		}
		seen[r.Name] = true
		if !nameRE.MatchString(r.Name) {
			t.Errorf("%s: name %q is not kebab-case", r.ID, r.Name)
		}
		wantKind := map[byte]Kind{'1': Code, '2': Node}[r.ID[2]]
		if r.Kind != wantKind {
			t.Errorf("%s: kind %q, want %q", r.ID, r.Kind, wantKind)
		}
		if r.Severity < Info || r.Severity > Error {
			t.Errorf("%s: invalid severity", r.ID)
		}
		for field, v := range map[string]string{"title": r.Title, "what": r.What, "why": r.Why, "fix": r.Fix, "bad": r.Bad, "good": r.Good} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: empty %s", r.ID, field)
			}
		}
		if strings.Contains(r.Title, "\n") {
			t.Errorf("%s: title spans lines", r.ID)
		}
		for _, m := range r.MinServers {
			if _, err := ParseTarget(m); err != nil {
				t.Errorf("%s: min_servers: %v", r.ID, err)
			}
		}
	}
	// The issues fix these IDs: LA101–LA115 and LA201–LA214 (a new rule
	// adds to them; docs/development.md, "Adding a rule").
	for _, span := range [][2]int{{100, 115}, {201, 214}} {
		for i := span[0]; i <= span[1]; i++ {
			if _, ok := Get(ID("LA" + itoa(i))); !ok {
				t.Errorf("LA%s is not in the catalog", itoa(i))
			}
		}
	}
}

func itoa(i int) string {
	return string(rune('0'+i/100)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10))
}

func TestVersions(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		err  bool
	}{
		{"valkey-9.0", "valkey-9.0.0", false},
		{"valkey-9.1.2", "valkey-9.1.2", false},
		{"Redis-8.4", "redis-8.4.0", false},
		{"valkey-9.7", "", true},
		{"memcached-1.6", "", true},
		{"valkey", "", true},
		{"valkey-9.x", "", true},
		{"", "", true},
	} {
		v, err := ParseTarget(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("ParseTarget(%q) error = %v, want error %v", tc.in, err, tc.err)
			continue
		}
		if err == nil && v.String() != tc.want {
			t.Errorf("ParseTarget(%q) = %s, want %s", tc.in, v, tc.want)
		}
	}
	rc, _ := ParseVersion(Valkey, "9.2.0~rc2")
	ga, _ := ParseVersion(Valkey, "9.2.0")
	if rc.Compare(ga) >= 0 || ga.Compare(rc) <= 0 {
		t.Errorf("pre-release must sort before its release")
	}
}

func TestSupports(t *testing.T) {
	for _, tc := range []struct {
		v    string
		f    Feature
		want bool
	}{
		{"valkey-8.0", SetIFEQ, false},
		{"valkey-8.1", SetIFEQ, true},
		{"valkey-8.1", DELIFEQ, false},
		{"valkey-9.0", DELIFEQ, true},
		{"valkey-9.1", DELEX, false},
		{"valkey-9.2", DELEX, true},
		{"redis-8.2", SetIFEQ, false},
		{"redis-8.4", SetIFEQ, true},
		{"redis-8.6", DELIFEQ, false},
		{"redis-8.4", DELEX, true},
	} {
		v, err := ParseTarget(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if got := Supports(v, tc.f); got != tc.want {
			t.Errorf("Supports(%s, %s) = %v, want %v", tc.v, tc.f, got, tc.want)
		}
	}
	if got := Requirement(DELIFEQ); got != "Valkey 9.0+, no Redis version" {
		t.Errorf("Requirement(DELIFEQ) = %q", got)
	}
}

func TestSelect(t *testing.T) {
	for _, tc := range []struct {
		spec string
		in   []string
		out  []string
		err  bool
	}{
		{"LA101,LA103", []string{"LA101", "LA103"}, []string{"LA102", "LA201"}, false},
		{"-LA110", []string{"LA101", "LA201"}, []string{"LA110"}, false},
		{"all,-LA2*", []string{"LA115"}, []string{"LA201"}, false},
		{"la1*", []string{"LA101"}, []string{"LA201"}, false},
		{"", []string{"LA101", "LA210"}, nil, false},
		{"LA999", nil, nil, true},
		{"-LA1O3", nil, nil, true},
		// Names work wherever IDs do, in any case, alone, negated and as globs.
		{"plain-del-release,Unfenced-Write", []string{"LA103", "LA110"}, []string{"LA101", "LA111"}, false},
		{"-plain-del-release", []string{"LA101", "LA201"}, []string{"LA103"}, false},
		{"fence-*", []string{"LA109", "LA111", "LA113"}, []string{"LA110", "LA103"}, false},
		{"plain-del-releases", nil, nil, true},
	} {
		got, err := Select(tc.spec)
		if (err != nil) != tc.err {
			t.Errorf("Select(%q) error = %v", tc.spec, err)
			continue
		}
		for _, id := range tc.in {
			if !got[id] {
				t.Errorf("Select(%q) lacks %s", tc.spec, id)
			}
		}
		for _, id := range tc.out {
			if got[id] {
				t.Errorf("Select(%q) has %s", tc.spec, id)
			}
		}
	}
}

// TestLookupByName: every rule is found by its ID and by its name, in
// any case, and the Rule returned carries the canonical ID.
func TestLookupByName(t *testing.T) {
	for _, r := range All() {
		for _, key := range []string{string(r.ID), strings.ToLower(string(r.ID)), r.Name, strings.ToUpper(r.Name), " " + r.Name + " "} {
			got, ok := Lookup(key)
			if !ok || got.ID != r.ID {
				t.Errorf("Lookup(%q) = %s, %v; want %s", key, got.ID, ok, r.ID)
			}
		}
	}
	for _, bad := range []string{"", "LA999", "plain-del", "plain_del_release", "LA103x"} {
		if r, ok := Lookup(bad); ok {
			t.Errorf("Lookup(%q) = %s, want none", bad, r.ID)
		}
	}
}

func TestDocHasSections(t *testing.T) {
	d := MustGet("LA104").Doc()
	for _, want := range []string{"LA104 extend-without-ttl", "What:", "Why:", "How to fix:", "Bad:", "Good:", "SetIFEQ"} {
		if !strings.Contains(d, want) {
			t.Errorf("Doc lacks %q:\n%s", want, d)
		}
	}
}

func TestParseTargets(t *testing.T) {
	vs, names, err := ParseTargets(" Valkey-8.1 ,valkey-9.0", "", "redis-8.4,")
	if err != nil || strings.Join(names, " ") != "valkey-8.1 valkey-9.0 redis-8.4" || len(vs) != 3 || vs[2].String() != "redis-8.4.0" {
		t.Errorf("ParseTargets = %v %v %v", vs, names, err)
	}
	for _, bad := range [][]string{{""}, {" , "}, nil, {"valkey-9.0,valkey-10.1"}} {
		if _, _, err := ParseTargets(bad...); err == nil {
			t.Errorf("ParseTargets(%q) accepted", bad)
		}
	}
}

// TestURL: each rule's page is its own file under docs/rules of the
// project's home, by ID.
func TestURL(t *testing.T) {
	if got, want := MustGet(LA103).URL(), "https://github.com/lockaudit/lockaudit/blob/main/docs/rules/LA103.md"; got != want {
		t.Errorf("URL() = %q, want %q", got, want)
	}
	seen := map[string]bool{}
	for _, r := range All() {
		if u := r.URL(); seen[u] || !strings.HasPrefix(u, Home+"/") {
			t.Errorf("%s: URL %q is shared or outside %s", r.ID, u, Home)
		} else {
			seen[u] = true
		}
	}
}

// TestDefinitions: the lock-evidence and target definitions are stated once
// and reach the documentation of every rule that relies on them.
func TestDefinitions(t *testing.T) {
	for _, name := range []string{"lock-evidence", "targets"} {
		d, ok := LookupDefinition(name)
		if !ok {
			t.Fatalf("no definition %q", name)
		}
		users := 0
		for _, r := range All() {
			for _, u := range r.Uses {
				if u != name {
					continue
				}
				users++
				first := strings.Fields(d.Text)[:6]
				if !strings.Contains(r.Doc(), d.Title+":") || !strings.Contains(strings.Join(strings.Fields(r.Doc()), " "), strings.Join(first, " ")) {
					t.Errorf("%s: Doc lacks the %s definition", r.ID, name)
				}
				if !strings.Contains(r.Markdown(), "**"+d.Title+":**") {
					t.Errorf("%s: Markdown lacks the %s definition", r.ID, name)
				}
			}
		}
		if users == 0 {
			t.Errorf("definition %q is used by no rule", name)
		}
	}
	for _, id := range []ID{"LA101", "LA103", "LA106", "LA107", "LA114"} {
		if r := MustGet(id); len(r.Definitions()) == 0 || r.Definitions()[0].Name != "lock-evidence" {
			t.Errorf("%s does not use lock-evidence", id)
		}
	}
}

// TestRuleIDsAreConstants: Go source names a rule by its generated
// constant (rules.LA103), never by a string literal ("LA103"), which would
// compile (an untyped constant converts to ID) and fail only at run time
// when mistyped. Tests and the places eachCodeLine skips aside.
func TestRuleIDsAreConstants(t *testing.T) {
	literal := regexp.MustCompile(`"LA[0-9]{3}"`)
	eachCodeLine(t, func(string) bool { return false }, func(rel string, n int, line, code string) {
		if literal.MatchString(code) {
			t.Errorf("%s:%d: a rule ID as a string: use its constant (rules.LAnnn): %s", rel, n, strings.TrimSpace(line))
		}
	})
}
