package redis

import "context"

type Pipeliner interface {
	StatefulCmdable
	Len() int
	Do(ctx context.Context, args ...interface{}) *Cmd
	Process(ctx context.Context, cmd Cmder) error
	Discard()
	Exec(ctx context.Context) ([]Cmder, error)
}

type Pipeline struct {
	cmdable
	statefulCmdable

	cmds []Cmder
}

func newPipeline() *Pipeline {
	p := &Pipeline{}
	p.cmdable = p.Process
	p.statefulCmdable = p.Process
	return p
}

func (c *Pipeline) Len() int { return len(c.cmds) }

func (c *Pipeline) Do(ctx context.Context, args ...interface{}) *Cmd {
	cmd := NewCmd(ctx, args...)
	_ = c.Process(ctx, cmd)
	return cmd
}

func (c *Pipeline) Process(ctx context.Context, cmd Cmder) error {
	c.cmds = append(c.cmds, cmd)
	return nil
}

func (c *Pipeline) Discard() { c.cmds = c.cmds[:0] }

func (c *Pipeline) Exec(ctx context.Context) ([]Cmder, error) { return c.cmds, nil }

func (c *Pipeline) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	if err := fn(c); err != nil {
		return nil, err
	}
	return c.Exec(ctx)
}

func (c *Pipeline) Pipeline() Pipeliner { return c }

func (c *Pipeline) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return c.Pipelined(ctx, fn)
}

func (c *Pipeline) TxPipeline() Pipeliner { return c }
