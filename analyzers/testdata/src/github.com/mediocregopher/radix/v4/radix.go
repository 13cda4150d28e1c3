// Package radix is a stub of github.com/mediocregopher/radix/v4 (v4.1.4) for
// lockaudit's analyzer tests.
package radix

import "context"

// Action performs a task using a Conn.
type Action interface {
	Properties() ActionProperties
	Perform(ctx context.Context, c Conn) error
}

type ActionProperties struct {
	Keys []string
}

type cmdAction struct {
	rcv  interface{}
	cmd  string
	args []string
}

func (c *cmdAction) Properties() ActionProperties              { return ActionProperties{} }
func (c *cmdAction) Perform(ctx context.Context, _ Conn) error { return nil }

// Cmd is used to perform a redis command and retrieve a result.
func Cmd(rcv interface{}, cmd string, args ...string) Action {
	return &cmdAction{rcv: rcv, cmd: cmd, args: args}
}

// FlatCmd is like Cmd, but the arguments can be of almost any type.
func FlatCmd(rcv interface{}, cmd string, args ...interface{}) Action {
	return &cmdAction{rcv: rcv, cmd: cmd}
}

// EvalScript contains the body of a script to be used with redis' EVAL.
type EvalScript struct {
	script, sum string
}

func NewEvalScript(script string) EvalScript { return EvalScript{script: script} }

func (es EvalScript) Cmd(rcv interface{}, keys []string, args ...string) Action {
	return &cmdAction{rcv: rcv, cmd: "EVALSHA"}
}

func (es EvalScript) FlatCmd(rcv interface{}, keys []string, args ...interface{}) Action {
	return &cmdAction{rcv: rcv, cmd: "EVALSHA"}
}

// Pipeline contains multiple Actions performed in one round trip.
type Pipeline struct {
	actions []Action
}

func NewPipeline() *Pipeline { return &Pipeline{} }

func (p *Pipeline) Append(a Action) { p.actions = append(p.actions, a) }

func (p *Pipeline) Properties() ActionProperties              { return ActionProperties{} }
func (p *Pipeline) Perform(ctx context.Context, c Conn) error { return nil }

// Conn is a Client wrapping a single network connection.
type Conn interface {
	Client
}

// Client describes an entity which can carry out Actions.
type Client interface {
	Addr() string
	Do(context.Context, Action) error
	Close() error
}

// PoolConfig is used to create Pool instances with particular settings.
type PoolConfig struct {
	Size int
}

// Pool is a dynamic connection pool.
type Pool struct{}

func (cfg PoolConfig) New(ctx context.Context, network, addr string) (*Pool, error) {
	return &Pool{}, nil
}

func (p *Pool) Addr() string                           { return "" }
func (p *Pool) Do(ctx context.Context, a Action) error { return nil }
func (p *Pool) Close() error                           { return nil }
