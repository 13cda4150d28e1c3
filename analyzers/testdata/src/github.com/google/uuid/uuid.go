// Package uuid is a stub of github.com/google/uuid v1.6.0 for analyzer
// tests: the real signatures of the functions lockaudit's LA107 knows.
package uuid

type UUID [16]byte

type Domain byte

var NameSpaceDNS = Must(Parse("6ba7b810-9dad-11d1-80b4-00c04fd430c8"))

func New() UUID                                             { return UUID{} }
func NewString() string                                     { return "" }
func NewRandom() (UUID, error)                              { return UUID{}, nil }
func NewUUID() (UUID, error)                                { return UUID{}, nil }
func NewV6() (UUID, error)                                  { return UUID{}, nil }
func NewV7() (UUID, error)                                  { return UUID{}, nil }
func NewMD5(space UUID, data []byte) UUID                   { return UUID{} }
func NewSHA1(space UUID, data []byte) UUID                  { return UUID{} }
func NewDCESecurity(domain Domain, id uint32) (UUID, error) { return UUID{}, nil }
func Must(uuid UUID, err error) UUID                        { return uuid }
func Parse(s string) (UUID, error)                          { return UUID{}, nil }
func (uuid UUID) String() string                            { return "" }
