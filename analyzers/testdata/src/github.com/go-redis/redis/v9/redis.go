package redis

import "context"

type Options struct {
	Addr string
}

type baseClient struct {
	opt *Options
}

func (c *baseClient) Close() error { return nil }

// Client is a Redis client representing a pool of zero or more underlying connections.
type Client struct {
	*baseClient
	cmdable
}

func NewClient(opt *Options) *Client {
	c := Client{baseClient: &baseClient{opt: opt}}
	c.cmdable = c.Process
	return &c
}

func (c *Client) Process(ctx context.Context, cmd Cmder) error { return nil }

// Do creates a Cmd from the args and processes the cmd.
func (c *Client) Do(ctx context.Context, args ...interface{}) *Cmd {
	cmd := NewCmd(ctx, args...)
	_ = c.Process(ctx, cmd)
	return cmd
}

func (c *Client) Conn() *Conn {
	conn := &Conn{}
	conn.cmdable = conn.Process
	conn.statefulCmdable = conn.Process
	return conn
}

func (c *Client) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return c.Pipeline().Pipelined(ctx, fn)
}

func (c *Client) Pipeline() Pipeliner { return newPipeline() }

func (c *Client) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return c.TxPipeline().Pipelined(ctx, fn)
}

func (c *Client) TxPipeline() Pipeliner { return newPipeline() }

// Conn represents a single Redis connection rather than a pool of connections.
type Conn struct {
	baseClient
	cmdable
	statefulCmdable
}

func (c *Conn) Process(ctx context.Context, cmd Cmder) error { return nil }

func (c *Conn) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return c.Pipeline().Pipelined(ctx, fn)
}

func (c *Conn) Pipeline() Pipeliner { return newPipeline() }

func (c *Conn) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return c.TxPipeline().Pipelined(ctx, fn)
}

func (c *Conn) TxPipeline() Pipeliner { return newPipeline() }
