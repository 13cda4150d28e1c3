// Package helperdel: a lock released through another package's
// GET-compare-then-DEL helper, called through its interface (nfgo's njob):
// the DEL races the GET check. The same helper on a cache entry is no
// lock's release.
package helperdel

import (
	"crypto/rand"
	"encoding/hex"
	"log"
	"time"

	"github.com/gomodule/redigo/redis"

	"la103/helperdel/ndb"
)

type redisMutex struct {
	redisOper   ndb.RedisOper
	lockTimeout time.Duration
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (m *redisMutex) TryRunWithMutex(key string, fn func()) error {
	token := newToken()
	conn := m.redisOper.Conn()
	_, err := redis.String(conn.Do("SET", key, token, "PX", int64(m.lockTimeout/time.Millisecond), "NX"))
	conn.Close()
	if err != nil {
		return err
	}
	defer func() {
		if err := m.redisOper.DeleteByKeyValue(key, token); err != nil { // want "^DEL in DeleteByKeyValue of lock key `key` races its GET check of the token: the lock can change hands in between; use DELIFEQ key token$"
			log.Printf("release %s: %v", key, err)
		}
	}()
	fn()
	return nil
}

// Negatives: the helper on a cache entry nothing locks (an ETag check),
// and a GET-then-DEL helper without a comparison.

func evict(ops ndb.RedisOper, id, etag string) error {
	return ops.DeleteByKeyValue("cache:"+id, etag)
}

func (m *redisMutex) drop(key string) error { return m.redisOper.DeleteStale("cache:" + key) }
