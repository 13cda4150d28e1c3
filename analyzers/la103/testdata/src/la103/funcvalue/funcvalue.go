// Package funcvalue: a lock whose commands go through a function value
// shaped like redigo's Do (yamakiller/magicLibs' RedisMutex and its
// RedisMethodDo): its Unlock is a plain DEL.
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
	if err == redis.ErrNil {
		return false, nil
	}
	return err == nil, err
}

func (m *RedisMutex) Unlock() error {
	_, err := m.doFun("del", m.key()) // want "^plain DEL of lock key `m.key\\(\\)` deletes whoever holds it: use DELIFEQ key token and check the reply$"
	return err
}

// Negatives: the same function value deleting a data key, and a command
// that is not a constant.

type Store struct{ doFun RedisMethodDo }

func (s *Store) Forget(name string) error {
	_, err := s.doFun("DEL", "session:"+name)
	return err
}

func (m *RedisMutex) send(cmd string) error {
	_, err := m.doFun(cmd, m.key())
	return err
}
