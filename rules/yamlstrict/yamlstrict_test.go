package yamlstrict

import (
	"errors"
	"strings"
	"testing"
)

type node struct {
	Addr    string `yaml:"addr"`
	Version string `yaml:"version"`
}

type doc struct {
	Name  string            `yaml:"name"`
	On    bool              `yaml:"on"`
	Nodes []node            `yaml:"nodes"`
	Tags  map[string]string `yaml:"tags"`
}

func TestDecode(t *testing.T) {
	var d doc
	src := "name: x\non: yes\nnodes:\n  - addr: a:1\n    version: v1\n  - addr: b:2\ntags: {k: v}\n"
	if err := Decode("d.yaml", []byte(src), &d, Checks{}); err != nil {
		t.Fatal(err)
	}
	if d.Name != "x" || !d.On || len(d.Nodes) != 2 || d.Nodes[1].Addr != "b:2" || d.Tags["k"] != "v" {
		t.Errorf("decoded %+v", d)
	}
}

func TestErrors(t *testing.T) {
	checks := Checks{
		Item: func(key, name, value string) error {
			if key == "tags" && value == "bad" {
				return errors.New("bad tag")
			}
			return nil
		},
		Key: func(key string) error {
			if key == "nodes[1].version" {
				return errors.New("second version refused")
			}
			return nil
		},
		Refuse: map[string]string{"nodes[0].secret": "never here"},
	}
	for _, tc := range []struct{ src, want string }{
		{"nodes:\n  - addr: a\n    port: 1\n", "d.yaml:3: nodes[0].port: unknown key (known keys under nodes[0]: addr, version)"},
		{"nodes:\n  - addr: a\n  - version: v\n", "d.yaml:3: nodes[1].version: second version refused"},
		{"nodes:\n  - secret: s\n", "d.yaml:2: nodes[0].secret: never here"},
		{"nodes: {a: b}\n", "d.yaml:1: nodes: want a list, got a mapping"},
		{"tags:\n  a: ok\n  b: bad\n", "d.yaml:3: tags: bad tag"},
		{"on: maybe\n", `d.yaml:1: on: want true or false, got "maybe"`},
	} {
		var d doc
		err := Decode("d.yaml", []byte(tc.src), &d, checks)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode(%q) = %v\nwant %q", tc.src, err, tc.want)
		}
	}
}

// TestAllErrorsAtOnce: every problem in a file is reported, in line order,
// and what is right is still decoded.
func TestAllErrorsAtOnce(t *testing.T) {
	checks := Checks{Item: func(key, name, value string) error {
		if value == "bad" {
			return errors.New("bad " + key)
		}
		return nil
	}}
	src := "name: ok\non: maybe\nnodes:\n  - addr: a:1\n    port: 1\n  - addr: [x]\n    version: v2\ntags:\n  a: bad\n  b: good\ncolour: red\n"
	var d doc
	err := Decode("d.yaml", []byte(src), &d, checks)
	want := []string{
		`d.yaml:2: on: want true or false, got "maybe"`,
		"d.yaml:5: nodes[0].port: unknown key (known keys under nodes[0]: addr, version)",
		"d.yaml:6: nodes[1].addr: want a string, got a list",
		"d.yaml:9: tags: bad tags",
		"d.yaml:11: colour: unknown key (known keys: name, nodes, on, tags)",
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Fatalf("Decode = %v\nwant:\n%s", err, strings.Join(want, "\n"))
	}
	if n := len(List(err)); n != len(want) {
		t.Errorf("List has %d errors, want %d", n, len(want))
	}
	var first *Error
	if !errors.As(err, &first) || first.Line != 2 || first.Key != "on" {
		t.Errorf("errors.As finds %+v, want the first error", first)
	}
	if d.Name != "ok" || len(d.Nodes) != 2 || d.Nodes[0].Addr != "a:1" || d.Nodes[1].Version != "v2" || d.Tags["b"] != "good" {
		t.Errorf("the valid parts were not decoded: %+v", d)
	}
	if got := List(errors.New("x")); len(got) != 1 || List(nil) != nil {
		t.Errorf("List of a plain error / nil: %v %v", got, List(nil))
	}
}
