// Package data: the same script constructor in a cache: a compare-and-delete
// of an entry by its ETag, with no lock evidence.
package data

import "la101/scriptcopy/redis"

var invalidate = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`)

type Cache struct{ conn redis.Conn }

func (c *Cache) Invalidate(key, etag string) error {
	_, err := c.conn.Eval(invalidate, key, etag)
	return err
}
