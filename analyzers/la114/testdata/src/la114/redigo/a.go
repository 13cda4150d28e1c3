// Package redigo: LA114 on redigo.
package redigo

import "github.com/gomodule/redigo/redis"

type Lock struct {
	conn  redis.Conn
	key   string
	token string
}

func (l *Lock) Acquire() (bool, error) {
	return redis.Bool(l.conn.Do("SET", l.key, l.token, "NX", "PX", 10000))
}

func (l *Lock) Extend() error {
	_, err := l.conn.Do("PEXPIRE", l.key, 10000) // want "^PEXPIRE of lock key `l\\.key` extends whoever holds it now: use SET key token IFEQ token PX ttl and stop when it fails$"
	return err
}

func (l *Lock) ExtendAt(ms int64) error {
	_, err := l.conn.Do("pexpireat", "lock:"+l.key, ms) // want "^PEXPIREAT of lock key `\"lock:\" \\+ l\\.key`"
	return err
}

// Negatives: SETNX then EXPIRE (LA106), args not visible, a cache key.
func negatives(c redis.Conn, args redis.Args) {
	c.Do("SETNX", "lock:legacy", "t")
	c.Do("EXPIRE", "lock:legacy", 10)
	c.Do("PEXPIRE", args...)
	c.Do("EXPIRE", "cache:x", 10)
}
