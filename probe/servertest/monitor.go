package servertest

import (
	"bufio"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
)

// Monitor records every command a server executes (MONITOR), to show what
// a tool really sent.
type Monitor struct {
	s     *Server
	c     net.Conn
	lines chan string
}

// Command is one line of MONITOR: the client's address and the arguments.
type Command struct {
	Client string // "127.0.0.1:54321", or the primary's address for replicated writes
	Args   []string
}

// Name is the command as commandstats names it: "scan", "object|idletime".
func (c Command) Name() string {
	if len(c.Args) == 0 {
		return ""
	}
	name := strings.ToLower(c.Args[0])
	switch name {
	case "object", "client", "cluster", "config", "command", "sentinel", "function", "script", "acl", "memory", "module", "latency", "xinfo", "pubsub", "debug":
		if len(c.Args) > 1 {
			name += "|" + strings.ToLower(c.Args[1])
		}
	}
	return name
}

const monitorEnd = "lockaudit-servertest-monitor-end"

// Monitor starts MONITOR on the server; Stop returns what it saw.
func (s *Server) Monitor(t testing.TB) *Monitor {
	t.Helper()
	c, err := net.DialTimeout("tcp", s.Addr, 10*time.Second)
	if err != nil {
		t.Fatalf("servertest: MONITOR %s: %v", s.Addr, err)
	}
	r := bufio.NewReader(c)
	do := func(args ...string) {
		if err := resp.Write(c, args...); err != nil {
			t.Fatalf("servertest: MONITOR %s: %v", s.Addr, err)
		}
		line, err := r.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "+OK") {
			t.Fatalf("servertest: %s on %s: %q %v", args[0], s.Addr, line, err)
		}
	}
	if s.Config.Password != "" {
		do("AUTH", s.Config.Password)
	}
	do("MONITOR")
	m := &Monitor{s: s, c: c, lines: make(chan string, 1<<16)}
	go func() {
		defer close(m.lines)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			m.lines <- strings.TrimRight(line, "\r\n")
		}
	}()
	t.Cleanup(func() { c.Close() })
	return m
}

// Stop sends a marker command, reads MONITOR up to it, and returns every
// command seen before it (MONITOR's own traffic excluded).
func (m *Monitor) Stop(t testing.TB) []Command {
	t.Helper()
	if _, err := m.s.Try("ECHO", monitorEnd); err != nil {
		t.Fatalf("servertest: MONITOR marker on %s: %v", m.s.Addr, err)
	}
	defer m.c.Close()
	var out []Command
	timeout := time.After(SettleTimeout)
	for {
		select {
		case line, ok := <-m.lines:
			if !ok {
				t.Fatalf("servertest: MONITOR on %s ended before its marker", m.s.Addr)
			}
			c, err := parseMonitorLine(line)
			if err != nil {
				t.Fatalf("servertest: MONITOR on %s: %v", m.s.Addr, err)
			}
			if len(c.Args) == 2 && strings.EqualFold(c.Args[0], "echo") && c.Args[1] == monitorEnd {
				return out
			}
			out = append(out, c)
		case <-timeout:
			t.Fatalf("servertest: MONITOR on %s: marker not seen within %s", m.s.Addr, SettleTimeout)
		}
	}
}

// parseMonitorLine reads `+1700000000.123456 [0 127.0.0.1:5555] "SET" "k" "v"`.
func parseMonitorLine(line string) (Command, error) {
	rest, ok := strings.CutPrefix(line, "+")
	if !ok {
		return Command{}, fmt.Errorf("not a MONITOR line: %q", line)
	}
	_, rest, ok = strings.Cut(rest, " [")
	if !ok {
		return Command{}, fmt.Errorf("not a MONITOR line: %q", line)
	}
	src, rest, ok := strings.Cut(rest, "] ")
	if !ok {
		return Command{}, fmt.Errorf("not a MONITOR line: %q", line)
	}
	var c Command
	if _, client, ok := strings.Cut(src, " "); ok {
		c.Client = client
	}
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		if rest[0] != '"' {
			return Command{}, fmt.Errorf("MONITOR argument not quoted in %q", line)
		}
		var b strings.Builder
		i := 1
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] != '\\' || i+1 >= len(rest) {
				b.WriteByte(rest[i])
				continue
			}
			i++
			switch rest[i] {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'x':
				if i+2 < len(rest) {
					if n, err := strconv.ParseUint(rest[i+1:i+3], 16, 8); err == nil {
						b.WriteByte(byte(n))
						i += 2
						continue
					}
				}
				b.WriteByte('x')
			default:
				b.WriteByte(rest[i])
			}
		}
		if i >= len(rest) {
			return Command{}, fmt.Errorf("unterminated argument in %q", line)
		}
		c.Args = append(c.Args, b.String())
		rest = rest[i+1:]
	}
	return c, nil
}

// WaitOffsets waits until each replica has applied everything its primary
// had written when the call started (INFO replication offsets), so a test
// can read on a replica what it wrote on the primary.
func WaitOffsets(t testing.TB, primary *Server, replicas ...*Server) {
	t.Helper()
	want, err := strconv.ParseInt(primary.Info(t, "replication")["master_repl_offset"], 10, 64)
	if err != nil {
		t.Fatalf("servertest: %s master_repl_offset: %v", primary.Addr, err)
	}
	for _, r := range replicas {
		r := r
		waitFor(t, "replication offset of "+r.Addr, func() string {
			got, err := strconv.ParseInt(r.Info(t, "replication")["slave_repl_offset"], 10, 64)
			if err != nil || got < want {
				return fmt.Sprintf("slave_repl_offset %d < %d (%v)", got, want, err)
			}
			return ""
		})
	}
}
