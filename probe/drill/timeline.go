package drill

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/report"
)

// timeline records one variant's events, and holds each actor's
// connections (one per actor and address, as each client would have).
type timeline struct {
	mu     sync.Mutex
	start  time.Time
	events []report.DrillEvent
	conns  map[string]*resp.Conn // actor + " " + addr
	dial   func(addr string) (*resp.Conn, error)
	// progress prints one line per event (the CLI's live timeline); nil: quiet.
	progress func(report.DrillEvent)
}

func newTimeline(dial func(string) (*resp.Conn, error), progress func(report.DrillEvent)) *timeline {
	return &timeline{conns: map[string]*resp.Conn{}, dial: dial, progress: progress}
}

func (t *timeline) add(e report.DrillEvent) report.DrillEvent {
	t.mu.Lock()
	now := time.Now()
	if t.start.IsZero() {
		t.start = now
	}
	e.Time = now.UTC().Format(time.RFC3339Nano)
	e.AtMS = now.Sub(t.start).Milliseconds()
	t.events = append(t.events, e)
	t.mu.Unlock()
	if t.progress != nil {
		t.progress(e)
	}
	return e
}

// step records a step that is not a command.
func (t *timeline) step(actor, node, step, detail string) {
	t.add(report.DrillEvent{Actor: actor, Node: node, Step: step, Detail: detail})
}

// do sends one command as actor to addr, records it with the reply, and
// returns the reply. A transport error is recorded as a step and returned.
func (t *timeline) do(actor, addr string, args ...string) (resp.Value, error) {
	v, err := t.send(actor, addr, args...)
	if err != nil {
		t.step(actor, addr, report.StepTransport, strings.Join(args, " ")+": "+err.Error())
		return resp.Value{}, err
	}
	t.add(report.DrillEvent{Actor: actor, Node: addr, Command: args, Reply: replyText(v)})
	return v, nil
}

// quiet sends one command without recording it (polls whose last answer
// the caller records).
func (t *timeline) send(actor, addr string, args ...string) (resp.Value, error) {
	key := actor + " " + addr
	t.mu.Lock()
	c := t.conns[key]
	t.mu.Unlock()
	if c == nil {
		var err error
		if c, err = t.dial(addr); err != nil {
			return resp.Value{}, err
		}
		t.mu.Lock()
		t.conns[key] = c
		t.mu.Unlock()
	}
	v, err := c.Do(args...)
	if err != nil {
		c.Close()
		t.mu.Lock()
		delete(t.conns, key)
		t.mu.Unlock()
	}
	return v, err
}

// record adds a command and the reply it got earlier (the last of a poll).
func (t *timeline) record(actor, addr, reply string, args ...string) {
	t.add(report.DrillEvent{Actor: actor, Node: addr, Command: args, Reply: reply})
}

// forget closes actor's connection to addr, so the next command opens a
// new one (Sentinel kills the clients of a node it promotes).
func (t *timeline) forget(actor, addr string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c := t.conns[actor+" "+addr]; c != nil {
		c.Close()
		delete(t.conns, actor+" "+addr)
	}
}

func (t *timeline) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, c := range t.conns {
		c.Close()
		delete(t.conns, k)
	}
}

// replyText is a reply as a reader of the timeline wants it: OK, 42,
// (nil), [OK 42], an error with its code.
func replyText(v resp.Value) string {
	switch v.Kind {
	case resp.Nil:
		return "(nil)"
	case resp.Str, resp.Double:
		return v.Str
	case resp.Err:
		return "(error) " + v.Str
	case resp.Int:
		return strconv.FormatInt(v.Int, 10)
	case resp.Bool:
		return strconv.FormatBool(v.Int != 0)
	}
	parts := make([]string, len(v.Elems))
	for i, e := range v.Elems {
		parts[i] = replyText(e)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// addrReply reads SENTINEL GET-MASTER-ADDR-BY-NAME's [host, port].
func addrReply(v resp.Value) (string, error) {
	if v.Kind != resp.Array || len(v.Elems) != 2 {
		return "", fmt.Errorf("not an address: %s", replyText(v))
	}
	return net.JoinHostPort(v.Elems[0].Str, v.Elems[1].Str), nil
}
