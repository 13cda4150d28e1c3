// Package redigo: LA104 fixes on redigo. The extend gets the acquire's
// expiry arguments exactly as the acquire wrote them.
package redigo

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

const ttl = 30 * time.Second

// key is the lock's key everywhere.
const key = "lock:inventory"

func acquire(c redis.Conn, token string) (string, error) {
	return redis.String(c.Do("SET", key, token, "NX", "PX", ttl.Milliseconds()))
}

func extend(c redis.Conn, token string) error {
	_, err := redis.String(c.Do("SET", key, token, "IFEQ", token)) // want `SET IFEQ without EX/PX/EXAT/PXAT`
	if err != nil {
		return err
	}
	_, err = c.Do("SET", key, token, "IFEQ", token, "KEEPTTL") // want `SET IFEQ with KEEPTTL`
	return err
}

func seconds(c redis.Conn, token string) {
	c.Do("set", "lock:sec", token, "nx", "ex", 30)
	c.Do("set", "lock:sec", token, "ifeq", token) // want `SET IFEQ without EX/PX/EXAT/PXAT`
}

// Negatives.

func paramLease(c redis.Conn, token string, ms int64) {
	c.Do("SET", "lock:p", token, "NX", "PX", ms)
}

func paramExtend(c redis.Conn, token string, ms int64) {
	c.Do("SET", "lock:p", token, "IFEQ", token) // nofix: ms is another function's parameter // want `SET IFEQ without`
}

func absolute(c redis.Conn, token string, at int64) {
	c.Do("SET", "lock:abs", token, "NX", "PXAT", at)
	c.Do("SET", "lock:abs", token, "IFEQ", token) // nofix: PXAT is no lease // want `SET IFEQ without`
}
