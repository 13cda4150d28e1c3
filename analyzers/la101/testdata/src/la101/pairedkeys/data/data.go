// Package data: a compare-and-expire of a cache entry with one key passed
// for both KEYS, in a package without lock code: no lock evidence.
package data

import "github.com/gomodule/redigo/redis"

var touch = redis.NewScript(2, `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[2], ARGV[2]) else return 0 end`)

type Entry struct {
	Key, ETag string
	TTL       int
}

func Touch(c redis.Conn, e *Entry) (int64, error) {
	return redis.Int64(touch.Do(c, e.Key, e.Key, e.ETag, e.TTL))
}
