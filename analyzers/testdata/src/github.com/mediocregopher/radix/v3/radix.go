// Package radix is a stub of github.com/mediocregopher/radix/v3 (v3.8.0) for
// lockaudit's analyzer tests.
package radix

// Action performs a task using a Conn.
type Action interface {
	Keys() []string
	Run(c Conn) error
}

// CmdAction is a sub-class of Action which can be used in two different ways.
type CmdAction interface {
	Action
}

type cmdAction struct {
	rcv  interface{}
	cmd  string
	args []string
}

func (c *cmdAction) Keys() []string { return nil }
func (c *cmdAction) Run(Conn) error { return nil }

// Cmd is used to perform a redis command and retrieve a result.
func Cmd(rcv interface{}, cmd string, args ...string) CmdAction {
	return &cmdAction{rcv: rcv, cmd: cmd, args: args}
}

// FlatCmd is like Cmd, but the arguments can be of almost any type.
func FlatCmd(rcv interface{}, cmd, key string, args ...interface{}) CmdAction {
	return &cmdAction{rcv: rcv, cmd: cmd}
}

// EvalScript contains the body of a script to be used with redis' EVAL.
type EvalScript struct {
	script, sum string
	numKeys     int
}

func NewEvalScript(numKeys int, script string) EvalScript {
	return EvalScript{script: script, numKeys: numKeys}
}

func (es EvalScript) Cmd(rcv interface{}, keysAndArgs ...string) Action {
	return &cmdAction{rcv: rcv, cmd: "EVALSHA"}
}

func (es EvalScript) FlatCmd(rcv interface{}, keys []string, args ...interface{}) Action {
	return &cmdAction{rcv: rcv, cmd: "EVALSHA"}
}

type pipeline []CmdAction

func (p pipeline) Keys() []string { return nil }
func (p pipeline) Run(Conn) error { return nil }

// Pipeline returns an Action which first writes multiple commands to a Conn
// in a single write, then reads their responses in a single read.
func Pipeline(cmds ...CmdAction) Action { return pipeline(cmds) }

type withConn struct {
	key string
	fn  func(Conn) error
}

func (wc *withConn) Keys() []string   { return []string{wc.key} }
func (wc *withConn) Run(c Conn) error { return wc.fn(c) }

// WithConn is used to perform a set of independent Actions on the same Conn.
func WithConn(key string, fn func(Conn) error) Action { return &withConn{key, fn} }

// Conn is a Client wrapping a single network connection.
type Conn interface {
	Client
}

// Client describes an entity which can carry out Actions.
type Client interface {
	Do(Action) error
	Close() error
}

// Pool is a dynamic connection pool which implements the Client interface.
type Pool struct{}

func NewPool(network, addr string, size int) (*Pool, error) { return &Pool{}, nil }

func (p *Pool) Do(a Action) error { return nil }
func (p *Pool) Close() error      { return nil }
