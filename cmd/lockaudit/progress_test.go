package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWantProgress is the decision, without a terminal.
func TestWantProgress(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	for _, tt := range []struct {
		terminal bool
		getenv   func(string) string
		stdout   []string
		want     bool
	}{
		{true, env("TERM", "xterm"), []string{"text"}, true},
		{true, env(), nil, true},                               // every report goes to files
		{true, env(), []string{"html", "markdown"}, true},      // documents, not parsed
		{false, env("TERM", "xterm"), []string{"text"}, false}, // stderr is a file or a pipe
		{true, env("TERM", "dumb"), []string{"text"}, false},
		{true, env(), []string{"json"}, false},
		{true, env(), []string{"sarif"}, false},
		{true, env(), []string{"text", "json"}, false},
	} {
		if got := wantProgress(tt.terminal, tt.getenv, tt.stdout); got != tt.want {
			t.Errorf("wantProgress(terminal %v, TERM %q, stdout %v) = %v, want %v", tt.terminal, tt.getenv("TERM"), tt.stdout, got, tt.want)
		}
	}
}

// TestProgressOffWithoutTerminal: a buffer, a regular file, a pipe and
// /dev/null are not terminals: no progress, and every method is a no-op.
func TestProgressOffWithoutTerminal(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	plan := &outPlan{targets: []outTarget{{"-", "text", toStdout}}}
	for name, stderr := range map[string]interface{ Write([]byte) (int, error) }{"buffer": &bytes.Buffer{}, "file": file, "pipe": w, "devnull": null} {
		p := newProgress(&env{Stderr: stderr, Getenv: func(string) string { return "" }}, "audit", plan)
		if p != nil {
			t.Errorf("%s: progress is on", name)
		}
		p.phase("loading")
		p.nodes(1, 2)
		p.done()
	}
	if fi, _ := file.Stat(); fi.Size() != 0 {
		t.Errorf("%d bytes written to a file stderr", fi.Size())
	}
}

// TestProgressLine: when on, the line is drawn in place and erased by
// done, which is safe to repeat.
func TestProgressLine(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, name: "audit"}
	p.phase("loading and analysing packages")
	p.nodes(2, 3)
	p.done()
	p.done()
	out := buf.String()
	for _, want := range []string{
		"\r\033[Klockaudit audit: loading and analysing packages (0s)",
		"\r\033[Klockaudit audit: probing the fleet: 2 of 3 nodes read (0s)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%q", want, out)
		}
	}
	if !strings.HasSuffix(out, "\r\033[K") || strings.Count(out, "\r\033[K") < 3 {
		t.Errorf("the line is not erased at the end: %q", out)
	}
	if strings.Contains(out, "\n") {
		t.Errorf("progress wrote a newline: %q", out)
	}
	// Nodes reported before any phase draw nothing (the probe command
	// starts a phase first).
	var quiet bytes.Buffer
	q := &progress{w: &quiet, name: "probe"}
	q.nodes(1, 1)
	q.done()
	if quiet.Len() != 0 {
		t.Errorf("drawn without a phase: %q", quiet.String())
	}
}
