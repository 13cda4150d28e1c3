// Package redis is a stub of github.com/garyburd/redigo/redis (v1.6.4), the
// legacy import path of redigo, for lockaudit's analyzer tests.
package redis

import "time"

type Conn interface {
	Close() error
	Err() error
	Do(commandName string, args ...interface{}) (reply interface{}, err error)
	Send(commandName string, args ...interface{}) error
	Flush() error
	Receive() (reply interface{}, err error)
}

type ConnWithTimeout interface {
	Conn
	DoWithTimeout(timeout time.Duration, commandName string, args ...interface{}) (reply interface{}, err error)
	ReceiveWithTimeout(timeout time.Duration) (reply interface{}, err error)
}

func DoWithTimeout(c Conn, timeout time.Duration, cmd string, args ...interface{}) (interface{}, error) {
	return c.Do(cmd, args...)
}

type Pool struct {
	Dial func() (Conn, error)
}

func (p *Pool) Get() Conn { return nil }

type Script struct {
	keyCount int
	src      string
}

func NewScript(keyCount int, src string) *Script { return &Script{keyCount, src} }

func (s *Script) Do(c Conn, keysAndArgs ...interface{}) (interface{}, error) {
	return c.Do("EVALSHA", keysAndArgs...)
}

func Int(reply interface{}, err error) (int, error) { return 0, err }
