package probe

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/lockaudit/lockaudit/internal/secret"
	"github.com/lockaudit/lockaudit/rules"
)

// This file is the one home of the probe's options: what they are, their
// defaults (Defaulted) and what makes them unusable (Check). Collect,
// NewDialer (scan, conform) and the commands' flags all go through it.

// Options configure a probe run.
type Options struct {
	Addrs     []string // seed nodes, HOST:PORT
	Sentinels []string // Sentinels, HOST:PORT
	Master    string   // the primary's name under Sentinel; "" = every monitored primary

	User     string
	Password string      // never printed; redacted from every message
	TLS      *tls.Config // nil: plain TCP

	Timeout  time.Duration // per node: dial, handshake and each command (default 3s)
	Deadline time.Duration // the whole run (default 30s)
	Parallel int           // nodes probed at once (default 16)

	// Uses are what Run judges the fleet for, as named by -uses or the
	// config file's probe.uses; none: the run assumes the native path of
	// the fleet's flavor (AssumedUses) and its report says so.
	Uses []rules.Command
	Skew time.Duration // LA207 threshold (default DefaultSkew)

	RESP2   bool   // speak RESP2 even to servers that know RESP3
	Version string // lockaudit's version, for the report

	// Progress, when set, is called each time a node has been probed, with
	// the nodes probed so far and the nodes heard of so far (discovery can
	// still add some). It is called from the probing goroutines, one call at
	// a time.
	Progress func(probed, found int)
}

// The probe's defaults: the flags of every command that reads a fleet
// (probe, audit, scan, conform, probe -watch) and the config file's
// probe: section start from these, and Defaulted applies them to zero
// values.
const (
	DefaultTimeout  = 3 * time.Second
	DefaultDeadline = 30 * time.Second
	DefaultParallel = 16
)

// Defaulted returns the options with every zero limit set to its
// default: Timeout, Deadline, Parallel and Skew.
func (o Options) Defaulted() Options {
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Deadline == 0 {
		o.Deadline = DefaultDeadline
	}
	if o.Parallel == 0 {
		o.Parallel = DefaultParallel
	}
	if o.Skew == 0 {
		o.Skew = DefaultSkew
	}
	return o
}

// Check says what makes defaulted options unusable: no address, an address
// that is not HOST:PORT (or carries credentials), a negative limit, or TLS
// without certificate verification.
func (o Options) Check() error {
	if len(o.Addrs) == 0 && len(o.Sentinels) == 0 {
		return errors.New("no address to probe: give HOST:PORT arguments or -sentinel")
	}
	for _, a := range append(append([]string(nil), o.Addrs...), o.Sentinels...) {
		if err := CheckAddr(a); err != nil {
			return err
		}
	}
	switch {
	case o.Timeout < 0:
		return errors.New("-timeout must be positive")
	case o.Deadline < 0:
		return errors.New("-deadline must be positive")
	case o.Parallel < 0:
		return errors.New("-parallel must be at least 1")
	case o.Skew < 0:
		return errors.New("-skew must be positive")
	}
	if o.TLS != nil && o.TLS.InsecureSkipVerify {
		return errors.New("TLS certificate verification cannot be turned off: give the CA (-tls-ca) and the name to verify (-tls-server-name)")
	}
	return nil
}

// CheckAddr validates a HOST:PORT given by the user (commands check their
// flags with it before any slow work). An address with credentials in it
// (user:pass@, pass@, redis://, ...) is refused without being echoed.
func CheckAddr(a string) error {
	if secret.InAddr(a) {
		return errors.New("the address " + secret.Refusal)
	}
	host, port, err := net.SplitHostPort(a)
	p, perr := strconv.Atoi(port)
	if err != nil || host == "" || perr != nil || p < 1 || p > 65535 {
		return fmt.Errorf("%q is not HOST:PORT", a)
	}
	return nil
}
