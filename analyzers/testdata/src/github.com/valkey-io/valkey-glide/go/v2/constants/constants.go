// Package constants is a stub of github.com/valkey-io/valkey-glide/go/v2/constants (v2.5.3).
package constants

// A ConditionalSet defines whether a new value should be set or not.
type ConditionalSet string

const (
	OnlyIfExists       ConditionalSet = "XX"
	OnlyIfDoesNotExist ConditionalSet = "NX"
	OnlyIfEquals       ConditionalSet = "IFEQ"
)

// An ExpiryType is used to configure the type of expiration for a value.
type ExpiryType string

const (
	KeepExisting     ExpiryType = "KEEPTTL"
	Seconds          ExpiryType = "EX"
	Milliseconds     ExpiryType = "PX"
	UnixSeconds      ExpiryType = "EXAT"
	UnixMilliseconds ExpiryType = "PXAT"
	Persist          ExpiryType = "PERSIST"
)
