package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
)

// titleAndClear sets the terminal's title and clears the screen (OSC 0,
// then CSI 2J), then returns to the line's start to print a fake verdict.
const titleAndClear = "\x1b]0;SAFE\x07\x1b[2J\rSAFE"

// rawControl returns the first control character in out other than the
// newlines the format itself writes, or "".
func rawControl(out string) string {
	for _, r := range out {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0) {
			return string(r)
		}
	}
	return ""
}

func checkEscaped(t *testing.T, what, out string) {
	t.Helper()
	if c := rawControl(out); c != "" {
		t.Errorf("%s holds a raw control character %q:\n%q", what, c, out)
	}
	if !strings.Contains(out, `\x1b]0;SAFE\a`) && !strings.Contains(out, `\\x1b\]0;SAFE\\a`) {
		t.Errorf("%s does not show the escaped sequence:\n%s", what, out)
	}
}

// hostileServer is a fake node for what a real server cannot send: every
// request gets an error reply carrying terminal control sequences.
func hostileServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 4096)
				for {
					if _, err := c.Read(buf); err != nil {
						return
					}
					if _, err := c.Write([]byte("-ERR " + titleAndClear + "\r\n")); err != nil {
						return
					}
				}
			}()
		}
	}()
	return l.Addr().String()
}

// TestHostileServerErrorEscaped: a server whose errors carry ESC, OSC and
// CR cannot repaint the terminal through the text report, the summary on
// stderr, or a Markdown report rendered from the saved run; the JSON run
// keeps the exact bytes (JSON-escaped).
func TestHostileServerErrorEscaped(t *testing.T) {
	addr := hostileServer(t)
	dir := t.TempDir()
	stdout, stderr, _ := runIn(t, dir, nil, "probe", "-timeout", "2s", addr)
	checkEscaped(t, "probe's text report", stdout)
	checkEscaped(t, "probe's stderr", stderr)
	runIn(t, dir, nil, "probe", "-timeout", "2s", "-o", "run.json", addr)
	data, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `\u001b]0;SAFE\u0007`) {
		t.Errorf("the JSON run lost the server's exact reply:\n%s", data)
	}
	md, stderr, _ := runIn(t, dir, nil, "render", "-format", "markdown", "run.json")
	checkEscaped(t, "the Markdown report", md)
	checkEscaped(t, "render's stderr", stderr)
}

// TestHostileReplicaAnnounceEscaped: a real server can send control bytes
// too: replica-announce-ip is free text, and the primary reports it in
// ROLE and INFO replication. The probe's report shows it escaped, whichever
// way it gets there (quoted in an LA208 message today; a node address in
// the table once discovery uses ROLE's replica list).
func TestHostileReplicaAnnounceEscaped(t *testing.T) {
	servertest.Require(t, servertest.Valkey91)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	n[1].Do(t, "CONFIG", "SET", "replica-announce-ip", titleAndClear)
	n[1].Do(t, "CLIENT", "KILL", "TYPE", "master") // reconnect: the new address is announced
	for i := 0; i < 200 && !strings.Contains(n[0].Info(t, "replication")["slave0"], "SAFE"); i++ {
		n[1].Do(t, "PING") // a bounded wait for the replica to reconnect
	}
	if !strings.Contains(n[0].Do(t, "ROLE"), `\x1b]0;SAFE`) { // Do quotes the reply
		t.Fatalf("test setup: the primary does not report the announced address: %q", n[0].Do(t, "ROLE"))
	}
	stdout, stderr, code := runIn(t, t.TempDir(), nil, "probe", "-timeout", "2s", n[0].Addr)
	checkEscaped(t, "probe's text report", stdout)
	// The primary's replica list is unreadable, so the nodes that can
	// become primary are not all known: never safe.
	if code != report.ExitUnknown {
		t.Errorf("exit %d with an unreadable replica list, want %d (unknown)\n%s", code, report.ExitUnknown, stdout)
	}
	if c := rawControl(stderr); c != "" {
		t.Errorf("stderr holds %q: %q", c, stderr)
	}
	// The LA208 message names the unreadable fact once, then why.
	if !strings.Contains(stdout, "INFO replication: malformed slave0 line") || strings.Contains(stdout, "INFO replication: INFO replication") {
		t.Errorf("want the fact named once before its reason:\n%s", stdout)
	}
}

// TestHostileFileNameAndLiteralEscaped: a Go file whose name holds control
// sequences, and a string literal holding them raw, are printed escaped by
// vet's text and Markdown reports (the file name on every finding line, the
// literal in the message and the source line).
func TestHostileFileNameAndLiteralEscaped(t *testing.T) {
	mod := redigoModule(t, map[string]string{
		"svc/evil" + titleAndClear + ".go": "package svc\n\nimport \"github.com/gomodule/redigo/redis\"\n\nfunc Release(conn redis.Conn) {\n\tconn.Do(\"DEL\", \"lock:" + titleAndClear + "\")\n}\n",
	})
	for _, format := range []string{"text", "markdown"} {
		stdout, stderr, code := runIn(t, mod, nil, "vet", "-format", format, "./...")
		if code != report.ExitFindings {
			t.Fatalf("vet -format %s: exit %d\n%s", format, code, stderr)
		}
		checkEscaped(t, "vet's "+format+" report", stdout)
		if strings.Count(stdout, "SAFE") < 2 {
			t.Errorf("%s: want the file name and the literal, escaped:\n%s", format, stdout)
		}
	}
}
