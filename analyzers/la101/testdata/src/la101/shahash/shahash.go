// Package shahash: scripts run only as EVALSHA of a SHA1 computed in Go
// from a visible text (go-leader's hashScript of an embedded file, or
// hex(sha1.Sum(text)) inline); SCRIPT LOAD of the text happens elsewhere,
// from a slice, on NOSCRIPT. The run sends that text: reported where it
// runs. A SHA of a text this package cannot see is not.
package shahash

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const setScript = `return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') and 1 or 0`

const deleteScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`

func hashScript(script string) string {
	sha := sha1.New()
	sha.Write([]byte(script))
	return hex.EncodeToString(sha.Sum(nil))
}

var (
	setSHA    = hashScript(setScript)
	deleteSHA = fmt.Sprintf("%x", sha1.Sum([]byte(deleteScript)))
)

func acquire(ctx context.Context, rdb *redis.Client, key, id string, ttl time.Duration) (bool, error) {
	v, err := rdb.EvalSha(ctx, setSHA, []string{key}, id, ttl.Milliseconds()).Int() // want `^Lua lock script \(acquire\): use SET key token NX PX ttl instead$`
	return v == 1, err
}

func release(ctx context.Context, rdb *redis.Client, key, id string) error {
	return rdb.EvalSha(ctx, deleteSHA, []string{key}, id).Err() // want `^Lua lock script \(release\): use DELIFEQ key token instead$`
}

// Negatives: a SHA of the caller's text, and a constant text given to a
// helper that does not hash it.
func runText(ctx context.Context, rdb *redis.Client, text, key string) error {
	return rdb.EvalSha(ctx, hashScript(text), []string{key}).Err()
}

func named(script string) string { return "sha:" + script }

func runNamed(ctx context.Context, rdb *redis.Client, key, id string) error {
	return rdb.EvalSha(ctx, named(deleteScript), []string{key}, id).Err()
}
