// Package funcvalue exercises the resolve layer on commands sent through
// a function value shaped like redigo's Do (yamakiller/magicLibs'
// RedisMethodDo): read as the raw command its constant first argument
// names.
package funcvalue

import (
	"context"
	"fmt"

	"github.com/gomodule/redigo/redis"
)

type DoFunc func(commandName string, args ...interface{}) (interface{}, error)

type Mutex struct {
	do    DoFunc
	key   string
	token string
}

func (m *Mutex) calls(ctx context.Context, exec func(ctx context.Context, cmd string, args ...any) (any, error), name string) {
	m.do("SET", m.key, m.token, "EX", 10, "NX") // want `^\QSET key=m.key value=m.token NX ttl=expire ttlexpr=10 client=function value\E$`
	m.do("del", m.key)                          // want `^\QDEL key=m.key client=function value\E$`
	exec(ctx, "PEXPIRE", m.key, 100)            // want `^\QPEXPIRE key=m.key ttlexpr=100 client=function value\E$`
	args := []interface{}{m.key}
	m.do("UNLINK", args...) // want `^\QUNLINK key=m.key client=function value\E$`

	// Not commands: a name that is not constant, a conversion, another shape.
	m.do(name, m.key)
	m.do(fmt.Sprint("DEL"), m.key)
	_ = DoFunc(redis.Conn(nil).Do)
	logf := func(format string, args ...interface{}) error { return nil }
	logf("DEL", m.key)
	pick := func(cmd string, args ...interface{}) string { return cmd }
	pick("DEL", m.key)
}

func byParam(do func(string, ...interface{}) (interface{}, error), key string) {
	do("EXPIRE", key, 30) // want `^\QEXPIRE key=key ttlexpr=30 client=function value\E$`
}
