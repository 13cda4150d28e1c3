// Package contract declares a key builder interface, implemented in
// another package (DoNewsCode/core's contract.Keyer).
package contract

type Keyer interface {
	Key(delimiter string, args ...string) string
}

type Clock interface {
	Stamp() string
}
