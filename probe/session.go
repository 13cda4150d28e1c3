package probe

import (
	"context"
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
)

// Dialer connects to nodes exactly as the probe does (same credentials,
// TLS, timeouts, redaction, no CLIENT SETINFO), for the commands built on
// top of it: scan and conform. Each connection carries the allowlist its
// caller gives it, and sends nothing that list refuses; the probe's own
// connections keep the read-only list (checkReadOnly).
type Dialer struct{ d *dialer }

// NewDialer takes the connection settings of opt (User, Password, TLS,
// Timeout, RESP2), defaulted as a probe's (Options.Defaulted).
func NewDialer(opt Options) *Dialer {
	opt = opt.Defaulted()
	return &Dialer{&dialer{user: opt.User, password: opt.Password, tls: opt.TLS, timeout: opt.Timeout, resp2: opt.RESP2, redact: redactor(opt.Password), limits: sessionLimits}}
}

// Redact removes the password from text.
func (d *Dialer) Redact(s string) string { return d.d.redact(s) }

// Dial connects to addr under the connection name (CLIENT LIST shows it);
// every command sent on the connection must pass allow. Every connection
// goes through the dial function of netguard.From(ctx) when there is one,
// and every reply through the framing check (sessionLimits).
func (d *Dialer) Dial(ctx context.Context, addr, name string, allow Allowlist) (*Conn, error) {
	if allow == nil {
		return nil, fmt.Errorf("probe: Dial without an allowlist")
	}
	c, err := d.d.dialAs(ctx, addr, name, allow)
	if err != nil {
		return nil, err
	}
	return &Conn{c}, nil
}

// Conn is one connection made by a Dialer.
type Conn struct{ c *conn }

// Addr is the address dialled.
func (c *Conn) Addr() string { return c.c.addr }

// Do sends one command. A server error reply is a Value of Kind resp.Err;
// err is a command the allowlist refused or a transport failure.
func (c *Conn) Do(ctx context.Context, args ...string) (resp.Value, error) {
	return c.c.send(ctx, args...)
}

// DoAll sends the commands in one round trip (MULTI … EXEC included); the
// whole batch is refused when one command is.
func (c *Conn) DoAll(ctx context.Context, cmds [][]string) ([]resp.Value, error) {
	return c.c.sendAll(ctx, cmds)
}

// Close closes the connection without waiting.
func (c *Conn) Close() { c.c.close() }

// Allowlist decides whether a command may be sent; the error says why not.
type Allowlist func(args []string) error

// Commands is an allowlist table: command name → the subcommands allowed
// (nil: the command has none to check). Names are upper-case.
type Commands map[string]map[string]bool

// Check refuses a command (or subcommand) that is not in the table; who
// names the caller in the error ("scan").
func (t Commands) Check(who string, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%s: empty command", who)
	}
	name := strings.ToUpper(args[0])
	subs, ok := t[name]
	if !ok {
		return fmt.Errorf("%s: refusing to send %s: not on its allowlist", who, name)
	}
	if subs == nil {
		return nil
	}
	if len(args) < 2 || !subs[strings.ToUpper(args[1])] {
		sub := ""
		if len(args) > 1 {
			sub = " " + strings.ToUpper(args[1])
		}
		return fmt.Errorf("%s: refusing to send %s%s: not on its allowlist", who, name, sub)
	}
	return nil
}
