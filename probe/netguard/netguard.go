// Package netguard decides where the probe may connect. A caller puts a
// Dial function into the context it gives probe.Run; the probe opens every
// TCP connection through it (through net.Dialer when there is none). Tests
// use LoopbackOnly, so that nothing they run connects off this machine.
package netguard

import (
	"context"
	"fmt"
	"net"
	"net/netip"
)

// DialFunc opens a TCP connection to addr (HOST:PORT).
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

type key struct{}

// With returns ctx carrying dial.
func With(ctx context.Context, dial DialFunc) context.Context {
	return context.WithValue(ctx, key{}, dial)
}

// From returns the DialFunc ctx carries, or nil.
func From(ctx context.Context) DialFunc {
	d, _ := ctx.Value(key{}).(DialFunc)
	return d
}

// CheckLoopback accepts only HOST:PORT whose host is a loopback IP address
// (127.0.0.0/8 or ::1) written as an address: a name is refused, since what
// it resolves to is not known here.
func CheckLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("netguard: %q is not HOST:PORT", addr)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.Unmap().IsLoopback() {
		return fmt.Errorf("netguard: refusing to connect to %s: only loopback addresses (127.0.0.0/8, ::1) are allowed here", addr)
	}
	return nil
}

// LoopbackOnly dials addr if CheckLoopback accepts it; refused is called
// (when not nil) with the error of each address it refuses.
func LoopbackOnly(refused func(error)) DialFunc {
	var d net.Dialer
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if err := CheckLoopback(addr); err != nil {
			if refused != nil {
				refused(err)
			}
			return nil, err
		}
		return d.DialContext(ctx, network, addr)
	}
}
