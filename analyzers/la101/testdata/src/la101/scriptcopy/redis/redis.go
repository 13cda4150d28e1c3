// Package redis: a lock library's copy of redigo's script object and its
// own driver interface (redsync v4's shape), implemented elsewhere.
package redis

import (
	"crypto/sha1"
	"encoding/hex"
	"io"
	"time"
)

type Conn interface {
	Get(name string) (string, error)
	SetNX(name string, value string, expiry time.Duration) (bool, error)
	Eval(script *Script, keysAndArgs ...interface{}) (interface{}, error)
}

// Script keeps the source, its SHA1 and its key count.
type Script struct {
	KeyCount int
	Src      string
	Hash     string
}

// NewScript is redigo's constructor, copied: its callers define scripts.
func NewScript(keyCount int, src string) *Script {
	h := sha1.New()
	_, _ = io.WriteString(h, src)
	return &Script{keyCount, src, hex.EncodeToString(h.Sum(nil))}
}

// NewScriptDigest keeps only a digest of its text: no script's text is
// kept to read.
func NewScriptDigest(src string) *Script {
	return &Script{Hash: hex.EncodeToString([]byte(src))}
}
