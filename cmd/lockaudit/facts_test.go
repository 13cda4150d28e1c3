package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// factsModule is the module whose findings exist only through lock facts
// that flow between its packages (testdata/facts).
var factsModule = filepath.Join("..", "..", "testdata", "facts")

// TestFactsAcrossPackages: the facts of a project's own helper packages
// (a release helper, a client interface, a token helper) reach the package
// that uses them in lockaudit vet — over every package, and over the user
// alone, when the helpers are dependencies loaded for their facts — and in
// go vet -vettool, where they travel in .vetx files. The findings are the
// marks in the module's code.
func TestFactsAcrossPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockaudit and runs go vet")
	}
	bin := lockauditBinary(t)
	want := markedExpectations(t, factsModule)
	if len(want) < 4 {
		t.Fatalf("testdata/facts marks only %v", want)
	}
	var dispatch []expectation
	for _, x := range want {
		if strings.HasPrefix(x.File, "dispatch/") {
			dispatch = append(dispatch, x)
		}
	}
	for _, c := range []struct {
		name string
		args []string
		want []expectation
	}{
		{"lockaudit vet ./...", []string{bin, "vet", "./..."}, want},
		{"lockaudit vet ./dispatch", []string{bin, "vet", "./dispatch"}, dispatch},
		{"go vet -vettool", []string{"go", "vet", "-vettool=" + bin, "./..."}, want},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(c.args[0], c.args[1:]...)
			cmd.Dir = factsModule
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			if _, ok := err.(*exec.ExitError); err != nil && !ok {
				t.Fatal(err)
			}
			missing, extra := diffExpectations(c.want, parseFindings(t, out.String(), "./"))
			if len(missing) > 0 || len(extra) > 0 {
				t.Errorf("%s:\nmissing:\n  %s\nextra:\n  %s\noutput:\n%s", c.name,
					strings.Join(missing, "\n  "), strings.Join(extra, "\n  "), out.String())
			}
		})
	}
}
