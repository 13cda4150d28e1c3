package redis

import "context"

type UniversalOptions struct {
	Addrs []string
}

type UniversalClient interface {
	Cmdable
	Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error
	Do(ctx context.Context, args ...interface{}) *Cmd
	Process(ctx context.Context, cmd Cmder) error
	Close() error
}

var (
	_ UniversalClient = (*Client)(nil)
	_ UniversalClient = (*ClusterClient)(nil)
)

func NewUniversalClient(opts *UniversalOptions) UniversalClient { return NewClient(&Options{}) }
