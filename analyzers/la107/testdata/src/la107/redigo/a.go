// Package redigo: LA107 on redigo.
package redigo

import (
	"os"
	"strconv"

	"github.com/gomodule/redigo/redis"
	"github.com/google/uuid"
)

type Lock struct {
	c     redis.Conn
	key   string
	token string
}

func (l *Lock) Acquire() (bool, error) {
	l.token = strconv.Itoa(os.Getpid())
	return redis.Bool(l.c.Do("SET", l.key, strconv.Itoa(os.Getpid()), "NX", "PX", 30000)) // want `^lock token is not unique per acquisition: it comes from os\.Getpid;`
}

func (l *Lock) Release() (int, error) {
	return redis.Int(l.c.Do("DELIFEQ", l.key, l.token))
}

func legacy(c redis.Conn) {
	c.Do("SETNX", "lock:legacy", 1) // want `^lock token is not unique per acquisition: it comes from the constant 1;`
}

func fine(c redis.Conn) {
	tu, _ := uuid.NewRandom()
	c.Do("SET", "lock:x", tu.String(), "NX", "PX", 30000)
}
