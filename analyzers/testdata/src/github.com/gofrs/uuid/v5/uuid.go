// Package uuid is a stub of github.com/gofrs/uuid/v5 v5.3.2 for analyzer
// tests: the real signatures of the functions lockaudit's LA107 knows.
package uuid

const Size = 16

type UUID [Size]byte

var NamespaceDNS = Must(FromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8"))

func NewV1() (UUID, error)                 { return UUID{}, nil }
func NewV3(ns UUID, name string) UUID      { return UUID{} }
func NewV4() (UUID, error)                 { return UUID{}, nil }
func NewV5(ns UUID, name string) UUID      { return UUID{} }
func NewV6() (UUID, error)                 { return UUID{}, nil }
func NewV7() (UUID, error)                 { return UUID{}, nil }
func Must(u UUID, err error) UUID          { return u }
func FromString(text string) (UUID, error) { return UUID{}, nil }
func (u UUID) String() string              { return "" }
