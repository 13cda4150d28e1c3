package rules

import (
	"slices"
	"strings"
	"testing"
)

// TestCommandTable: every command has a name, a title and a path, and the
// names round-trip; each path serves at least one command.
func TestCommandTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Commands() {
		name := c.String()
		if name == "" || seen[name] || c.Title() == "" || !c.Path().Valid() {
			t.Errorf("command %d: name %q, title %q, path %v", c, name, c.Title(), c.Path())
		}
		seen[name] = true
		if back, err := ParseCommand(strings.ToUpper(name)); err != nil || back != c {
			t.Errorf("ParseCommand(%q) = %v, %v", name, back, err)
		}
		text, err := c.MarshalText()
		var back Command
		if err != nil || back.UnmarshalText(text) != nil || back != c {
			t.Errorf("%s does not round-trip as text: %q %v", name, text, err)
		}
		if f, ok := c.Feature(); ok != (c != UseLua) || (ok && !hasRelease(f)) {
			t.Errorf("%s: feature %q, %t (every command but Lua has a release that added it)", name, f, ok)
		}
	}
	if got := UseIFEQ.Title(); got != "SET IFEQ" {
		t.Errorf("SET IFEQ titled %q", got)
	}
	for _, p := range Paths() {
		if len(p.Commands()) == 0 {
			t.Errorf("path %s serves no command", p)
		}
		if back, err := ParsePath(p.String()); err != nil || back != p {
			t.Errorf("ParsePath(%s) = %v, %v", p, back, err)
		}
	}
	if got := NativeRelease.Commands(); !slices.Equal(got, []Command{UseDELIFEQ, UseDELEX}) {
		t.Errorf("release commands %v", got)
	}
	var zero Command
	if zero.Valid() || Command(9).Valid() {
		t.Error("the zero command or one past the table is valid")
	}
	if _, err := zero.MarshalText(); err == nil {
		t.Error("the zero command marshals")
	}
}

func TestParseCommands(t *testing.T) {
	got, err := ParseCommands("delifeq, IFEQ,lua,delifeq")
	if err != nil || !slices.Equal(got, []Command{UseDELIFEQ, UseIFEQ, UseLua}) {
		t.Errorf("ParseCommands = %v, %v", got, err)
	}
	for bad, want := range map[string]string{
		"":                `no command given (want a comma-separated list of delifeq, delex, ifeq or lua)`,
		",":               `no command given`,
		"delifeq,evalsha": `unknown command "evalsha" (want delifeq, delex, ifeq or lua)`,
	} {
		if _, err := ParseCommands(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseCommands(%q): %v, want %q", bad, err, want)
		}
	}
	if _, err := ParsePath("lua_scripts"); err == nil || !strings.Contains(err.Error(), "native_release, native_extend, lua") {
		t.Errorf("ParsePath of a bad name: %v", err)
	}
}

// hasRelease reports whether some flavor of the capability table has f.
func hasRelease(f Feature) bool {
	for _, fl := range Flavors() {
		if _, ok := Since(f, fl); ok {
			return true
		}
	}
	return false
}
