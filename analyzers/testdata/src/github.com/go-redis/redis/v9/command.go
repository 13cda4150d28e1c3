package redis

import (
	"context"
	"errors"
	"time"
)

// Nil reply returned by Redis when key does not exist.
var Nil = errors.New("redis: nil")

type Cmder interface {
	Name() string
	Args() []interface{}
	Err() error
}

type baseCmd struct {
	ctx  context.Context
	args []interface{}
	err  error
}

func (cmd *baseCmd) Name() string        { return "" }
func (cmd *baseCmd) Args() []interface{} { return cmd.args }
func (cmd *baseCmd) Err() error          { return cmd.err }

type Cmd struct {
	baseCmd
	val interface{}
}

func NewCmd(ctx context.Context, args ...interface{}) *Cmd {
	return &Cmd{baseCmd: baseCmd{ctx: ctx, args: args}}
}
func (cmd *Cmd) Val() interface{}             { return cmd.val }
func (cmd *Cmd) Result() (interface{}, error) { return cmd.val, cmd.err }
func (cmd *Cmd) Int() (int, error)            { return 0, cmd.err }
func (cmd *Cmd) Int64() (int64, error)        { return 0, cmd.err }
func (cmd *Cmd) Bool() (bool, error)          { return false, cmd.err }
func (cmd *Cmd) Text() (string, error)        { return "", cmd.err }

type StatusCmd struct {
	baseCmd
	val string
}

func NewStatusCmd(ctx context.Context, args ...interface{}) *StatusCmd {
	return &StatusCmd{baseCmd: baseCmd{ctx: ctx, args: args}}
}
func (cmd *StatusCmd) Val() string             { return cmd.val }
func (cmd *StatusCmd) Result() (string, error) { return cmd.val, cmd.err }

type BoolCmd struct {
	baseCmd
	val bool
}

func NewBoolCmd(ctx context.Context, args ...interface{}) *BoolCmd {
	return &BoolCmd{baseCmd: baseCmd{ctx: ctx, args: args}}
}
func (cmd *BoolCmd) Val() bool             { return cmd.val }
func (cmd *BoolCmd) Result() (bool, error) { return cmd.val, cmd.err }

type IntCmd struct {
	baseCmd
	val int64
}

func NewIntCmd(ctx context.Context, args ...interface{}) *IntCmd {
	return &IntCmd{baseCmd: baseCmd{ctx: ctx, args: args}}
}
func (cmd *IntCmd) Val() int64             { return cmd.val }
func (cmd *IntCmd) Result() (int64, error) { return cmd.val, cmd.err }

type IntSliceCmd struct {
	baseCmd
	val []int64
}

func (cmd *IntSliceCmd) Result() ([]int64, error) { return cmd.val, cmd.err }

type StringCmd struct {
	baseCmd
	val string
}

func (cmd *StringCmd) Val() string             { return cmd.val }
func (cmd *StringCmd) Result() (string, error) { return cmd.val, cmd.err }

type DurationCmd struct {
	baseCmd
	val time.Duration
}

func (cmd *DurationCmd) Result() (time.Duration, error) { return cmd.val, cmd.err }

type BoolSliceCmd struct {
	baseCmd
	val []bool
}
