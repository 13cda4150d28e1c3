// Package funcvalue: extends that re-SET the lock's token with a TTL and
// no IFEQ (yamakiller/magicLibs' RedisMutex.AddTimeOut, sent through a
// function value shaped like redigo's Do): they overwrite and extend
// whoever holds the lock now.
package funcvalue

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

type RedisMethodDo func(commandName string, args ...interface{}) (interface{}, error)

type RedisMutex struct {
	doFun    RedisMethodDo
	resource string
	token    string
}

func (m *RedisMutex) key() string { return fmt.Sprintf("redislock:%s", m.resource) }

func (m *RedisMutex) tryLock() (bool, error) {
	_, err := m.doFun("SET", m.key(), m.token, "EX", 30, "NX")
	return err == nil, err
}

func (m *RedisMutex) AddTimeOut(exTime int64) (bool, error) {
	ttl, err := redis.Int64(m.doFun("TTL", m.key()))
	if err != nil || ttl <= 0 {
		return false, err
	}
	_, err = redis.String(m.doFun("SET", m.key(), m.token, "EX", ttl+exTime)) // want "^SET of lock key `m.key\\(\\)` without IFEQ re-writes its token: it extends whoever holds it now; use SET key token IFEQ token PX ttl and stop when it fails$"
	return err == nil, err
}

// Negatives.

// The native compare-and-extend.
func (m *RedisMutex) extend(ms int) error {
	_, err := m.doFun("SET", m.key(), m.token, "IFEQ", m.token, "PX", ms)
	return err
}

// Another value (a marker that the lock is being handed over), and a SET
// of the token without a TTL: no extend.
func (m *RedisMutex) handOver() error {
	if _, err := m.doFun("SET", m.key(), "handover", "EX", 5); err != nil {
		return err
	}
	_, err := m.doFun("SET", m.key(), m.token)
	return err
}

// A data key written with a TTL through the same function value.
func (m *RedisMutex) remember(v string) error {
	_, err := m.doFun("SET", "seen:"+m.resource, v, "EX", 60)
	return err
}
