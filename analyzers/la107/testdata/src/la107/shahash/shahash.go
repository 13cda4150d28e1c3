// Package shahash: an acquire script run only as EVALSHA of the SHA1 of
// its text computed in Go, inside a closure of a wrapper (go-leader's
// atomicSet): the token the wrapper's caller passes is judged there. A
// time-seeded id is weak; a crypto/rand one is not.
package shahash

import (
	"context"
	crand "crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"encoding/hex"
	"math/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

const setScript = `if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') == false then return 0 else return 1 end`

func hashScript(script string) string {
	sha := sha1.New()
	sha.Write([]byte(script))
	return hex.EncodeToString(sha.Sum(nil))
}

var setSHA = hashScript(setScript)

type wrapper struct{ rdb *redis.Client }

func (w *wrapper) retry(fn func() error) error { return fn() }

func (w *wrapper) atomicSet(key, id string, ttl time.Duration) (bool, error) {
	ok := false
	err := w.retry(func() error {
		v, err := w.rdb.EvalSha(context.Background(), setSHA, []string{key}, id, ttl.Milliseconds()).Int()
		ok = v == 1
		return err
	})
	return ok, err
}

func clientID() string {
	src := rand.New(rand.NewSource(time.Now().UnixMicro()))
	id := make([]byte, 16)
	src.Read(id)
	return base32.StdEncoding.EncodeToString(id)
}

func strongID() string {
	id := make([]byte, 16)
	crand.Read(id)
	return base32.StdEncoding.EncodeToString(id)
}

func elect(w *wrapper) {
	w.atomicSet("leader:a", clientID(), time.Second) // want `^lock token written in atomicSet is not unique per acquisition: it comes from math/rand seeded with time\.Now`
	w.atomicSet("leader:b", strongID(), time.Second)
}
