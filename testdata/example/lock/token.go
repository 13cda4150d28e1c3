// Package lock holds what every lock in the service shares: key names and
// tokens.
package lock

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"
)

// TTL is the lease of every lock in the service.
const TTL = 30 * time.Second

// Errors every lock path returns.
var (
	ErrBusy  = errors.New("lock: held by someone else")
	ErrLost  = errors.New("lock: lost (expired or taken over)")
	ErrStale = errors.New("lock: a newer holder already wrote")
)

// NewToken returns 20 random bytes, hex-encoded: unique per acquisition.
func NewToken() (string, error) {
	var b [20]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// Keys returns the lock and fence keys of a resource. Both carry the same
// hash tag, so they live in one slot and may share a MULTI in cluster mode.
func Keys(kind, id string) (lockKey, fenceKey string) {
	tag := "{" + kind + ":" + id + "}"
	return "lock:" + tag, "fence:" + tag
}
