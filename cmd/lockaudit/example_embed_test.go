package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/lockaudit/lockaudit/internal/golden"
)

// TestEmbeddedExample: the example embedded in the binary is exactly
// testdata/example (its Go files, go.mod and go.sum), so the demo of an
// installed binary audits the same code as the tests; and writing it out
// gives those files back. -update rewrites example.txtar.
func TestEmbeddedExample(t *testing.T) {
	want, err := archiveExample(example)
	if err != nil {
		t.Fatal(err)
	}
	if *golden.Update {
		if err := os.WriteFile("example.txtar", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(exampleArchive, want) {
		t.Fatalf("example.txtar is not testdata/example: run go test ./cmd/lockaudit -run TestEmbeddedExample -update")
	}
	dir, err := writeExample(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.Walk(example, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !exampleFiles(info.Name()) {
			return err
		}
		n++
		rel, _ := filepath.Rel(example, p)
		orig, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil || !bytes.Equal(got, orig) {
			t.Errorf("%s: written %d bytes (%v), want the %d of testdata/example", rel, len(got), err, len(orig))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 8 {
		t.Errorf("only %d files in the example", n)
	}
}
