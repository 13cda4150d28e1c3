// Package redis is a stub of github.com/gomodule/redigo/redis (v1.9.3) for
// lockaudit's analyzer tests: only what the tests call, with the real
// signatures.
package redis

import (
	"context"
	"errors"
	"time"
)

// ErrNil indicates that a reply value is nil.
var ErrNil = errors.New("redigo: nil returned")

// Conn represents a connection to a Redis server.
type Conn interface {
	Close() error
	Err() error
	Do(commandName string, args ...interface{}) (reply interface{}, err error)
	Send(commandName string, args ...interface{}) error
	Flush() error
	Receive() (reply interface{}, err error)
}

// ConnWithTimeout is an optional interface that allows the caller to override
// a connection's default read timeout.
type ConnWithTimeout interface {
	Conn
	DoWithTimeout(timeout time.Duration, commandName string, args ...interface{}) (reply interface{}, err error)
	ReceiveWithTimeout(timeout time.Duration) (reply interface{}, err error)
}

// ConnWithContext is an optional interface that allows the caller to control the command's life with context.
type ConnWithContext interface {
	Conn
	DoContext(ctx context.Context, commandName string, args ...interface{}) (reply interface{}, err error)
	ReceiveContext(ctx context.Context) (reply interface{}, err error)
}

// DoContext sends a command to server and returns the received reply.
func DoContext(c Conn, ctx context.Context, cmd string, args ...interface{}) (interface{}, error) {
	if cwc, ok := c.(ConnWithContext); ok {
		return cwc.DoContext(ctx, cmd, args...)
	}
	return c.Do(cmd, args...)
}

// DoWithTimeout executes a Redis command with the specified read timeout.
func DoWithTimeout(c Conn, timeout time.Duration, cmd string, args ...interface{}) (interface{}, error) {
	return c.Do(cmd, args...)
}

// Pool maintains a pool of connections.
type Pool struct {
	Dial        func() (Conn, error)
	MaxIdle     int
	IdleTimeout time.Duration
}

func (p *Pool) Get() Conn { return nil }

func (p *Pool) GetContext(ctx context.Context) (Conn, error) { return nil, nil }

// Dial connects to the Redis server at the given network and address.
func Dial(network, address string) (Conn, error) { return nil, nil }

// Args is a helper for constructing command arguments from structured values.
type Args []interface{}

func (args Args) Add(value ...interface{}) Args { return append(args, value...) }

func (args Args) AddFlat(v interface{}) Args { return append(args, v) }

func Int(reply interface{}, err error) (int, error)              { return 0, err }
func Int64(reply interface{}, err error) (int64, error)          { return 0, err }
func String(reply interface{}, err error) (string, error)        { return "", err }
func Bool(reply interface{}, err error) (bool, error)            { return false, err }
func Values(reply interface{}, err error) ([]interface{}, error) { return nil, err }
