// Package options is a stub of github.com/valkey-io/valkey-glide/go/v2/options (v2.5.3).
package options

import (
	"time"

	"github.com/valkey-io/valkey-glide/go/v2/constants"
)

// SetOptions represents optional arguments for the SetWithOptions command.
type SetOptions struct {
	ConditionalSet  constants.ConditionalSet
	ComparisonValue string
	ReturnOldValue  bool
	Expiry          *Expiry
}

func NewSetOptions() *SetOptions { return &SetOptions{} }

func (setOptions *SetOptions) SetConditionalSet(conditionalSet constants.ConditionalSet) *SetOptions {
	setOptions.ConditionalSet = conditionalSet
	return setOptions
}

func (setOptions *SetOptions) SetOnlyIfExists() *SetOptions {
	setOptions.ConditionalSet = constants.OnlyIfExists
	return setOptions
}

func (setOptions *SetOptions) SetOnlyIfDoesNotExist() *SetOptions {
	setOptions.ConditionalSet = constants.OnlyIfDoesNotExist
	return setOptions
}

func (setOptions *SetOptions) SetOnlyIfEquals(comparisonValue string) *SetOptions {
	setOptions.ConditionalSet = constants.OnlyIfEquals
	setOptions.ComparisonValue = comparisonValue
	return setOptions
}

func (setOptions *SetOptions) SetReturnOldValue(returnOldValue bool) *SetOptions {
	setOptions.ReturnOldValue = returnOldValue
	return setOptions
}

func (setOptions *SetOptions) SetExpiry(expiry *Expiry) *SetOptions {
	setOptions.Expiry = expiry
	return setOptions
}

// Expiry is used to configure the lifetime of a value.
type Expiry struct {
	Type      constants.ExpiryType
	Duration  uint64
	Timestamp time.Time
}

func NewExpiryIn(duration time.Duration) *Expiry {
	return &Expiry{Type: constants.Milliseconds, Duration: uint64(duration.Milliseconds())}
}

func NewExpiryAt(timestamp time.Time) *Expiry {
	return &Expiry{Type: constants.UnixMilliseconds, Timestamp: timestamp}
}

func NewExpiryKeepExisting() *Expiry { return &Expiry{Type: constants.KeepExisting} }

func (ex *Expiry) SetType(expiryType constants.ExpiryType) *Expiry {
	ex.Type = expiryType
	return ex
}

// ScriptOptions holds the keys and arguments of a script invocation.
type ScriptOptions struct {
	Keys []string
	Args []string
}

func NewScriptOptions() *ScriptOptions { return &ScriptOptions{} }

func (o *ScriptOptions) WithKeys(keys []string) *ScriptOptions {
	o.Keys = keys
	return o
}

func (o *ScriptOptions) WithArgs(args []string) *ScriptOptions {
	o.Args = args
	return o
}

// Script represents a Lua script stored in Valkey/Redis
type Script struct {
	hash string
}

func NewScript(code string) *Script { return &Script{hash: code} }

func (s *Script) GetHash() string { return s.hash }

func (s *Script) Close() error { return nil }
