package redis

import "context"

// Tx implements Redis transactions as described in
// http://redis.io/topics/transactions.
type Tx struct {
	baseClient
	cmdable
	statefulCmdable
}

func (c *Client) Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error {
	tx := &Tx{}
	tx.cmdable = tx.Process
	tx.statefulCmdable = tx.Process
	return fn(tx)
}

func (c *Tx) Process(ctx context.Context, cmd Cmder) error { return nil }

func (c *Tx) Watch(ctx context.Context, keys ...string) *StatusCmd {
	cmd := NewStatusCmd(ctx, "watch")
	_ = c.Process(ctx, cmd)
	return cmd
}

func (c *Tx) Unwatch(ctx context.Context, keys ...string) *StatusCmd {
	cmd := NewStatusCmd(ctx, "unwatch")
	_ = c.Process(ctx, cmd)
	return cmd
}

func (c *Tx) Pipeline() Pipeliner { return newPipeline() }

func (c *Tx) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return c.Pipeline().Pipelined(ctx, fn)
}

func (c *Tx) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return c.TxPipeline().Pipelined(ctx, fn)
}

func (c *Tx) TxPipeline() Pipeliner { return newPipeline() }
