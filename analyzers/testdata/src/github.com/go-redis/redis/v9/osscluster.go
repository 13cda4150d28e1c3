package redis

import "context"

type ClusterOptions struct {
	Addrs []string
}

type ClusterClient struct {
	opt *ClusterOptions
	cmdable
}

func NewClusterClient(opt *ClusterOptions) *ClusterClient {
	c := &ClusterClient{opt: opt}
	c.cmdable = c.Process
	return c
}

func (c *ClusterClient) Close() error { return nil }

func (c *ClusterClient) Process(ctx context.Context, cmd Cmder) error { return nil }

func (c *ClusterClient) Do(ctx context.Context, args ...interface{}) *Cmd {
	cmd := NewCmd(ctx, args...)
	_ = c.Process(ctx, cmd)
	return cmd
}

func (c *ClusterClient) Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error {
	return fn(&Tx{})
}

func (c *ClusterClient) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return c.Pipeline().Pipelined(ctx, fn)
}

func (c *ClusterClient) Pipeline() Pipeliner { return newPipeline() }

func (c *ClusterClient) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return c.TxPipeline().Pipelined(ctx, fn)
}

func (c *ClusterClient) TxPipeline() Pipeliner { return newPipeline() }
