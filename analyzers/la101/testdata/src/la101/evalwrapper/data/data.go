// Package data: the same kind of EVAL wrapper (here spelt with append) in
// a cache without lock code: its compare-and-delete of an entry by ETag
// has no lock evidence, and a key count the caller does not fix leaves
// the keys unknown.
package data

import "github.com/gomodule/redigo/redis"

const deleteIfETag = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`

type Store struct{ conn redis.Conn }

func (s *Store) Eval(src string, keyCount int, keysAndArgs ...interface{}) (interface{}, error) {
	return s.conn.Do("EVAL", append([]interface{}{src, keyCount}, keysAndArgs...)...)
}

func (s *Store) Invalidate(key, etag string) error { // want Invalidate:"judged at callers"
	_, err := s.Eval(deleteIfETag, 1, key, etag)
	return err
}

func (s *Store) InvalidateN(n int, keysAndArgs ...interface{}) error {
	_, err := s.Eval(deleteIfETag, n, keysAndArgs...)
	return err
}
