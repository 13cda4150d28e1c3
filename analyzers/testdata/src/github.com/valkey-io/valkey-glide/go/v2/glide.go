// Package glide is a stub of github.com/valkey-io/valkey-glide/go/v2 (v2.5.3)
// for lockaudit's analyzer tests. The real package needs cgo (Rust FFI);
// this stub reproduces its receiver shapes: commands on the embedded
// *baseClient, batches executed by (*Client).Exec.
package glide

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-glide/go/v2/config"
	"github.com/valkey-io/valkey-glide/go/v2/interfaces"
	"github.com/valkey-io/valkey-glide/go/v2/models"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

type baseClient struct{}

type Client struct {
	baseClient
}

var _ interfaces.GlideClientCommands = (*Client)(nil)

func NewClient(config *config.ClientConfiguration) (*Client, error) { return &Client{}, nil }

type ClusterClient struct {
	baseClient
}

func NewClusterClient(config *config.ClusterClientConfiguration) (*ClusterClient, error) {
	return &ClusterClient{}, nil
}

func (client *baseClient) Close() {}

func (client *baseClient) Set(ctx context.Context, key string, value string) (string, error) {
	return "OK", nil
}

func (client *baseClient) SetWithOptions(
	ctx context.Context,
	key string,
	value string,
	options options.SetOptions,
) (models.Result[string], error) {
	return models.Result[string]{}, nil
}

func (client *baseClient) Get(ctx context.Context, key string) (models.Result[string], error) {
	return models.Result[string]{}, nil
}

func (client *baseClient) GetDel(ctx context.Context, key string) (models.Result[string], error) {
	return models.Result[string]{}, nil
}

func (client *baseClient) Incr(ctx context.Context, key string) (int64, error) { return 0, nil }

func (client *baseClient) Del(ctx context.Context, keys []string) (int64, error) { return 0, nil }

func (client *baseClient) Unlink(ctx context.Context, keys []string) (int64, error) { return 0, nil }

func (client *baseClient) PExpire(ctx context.Context, key string, expireTime time.Duration) (bool, error) {
	return false, nil
}

func (client *baseClient) Expire(ctx context.Context, key string, expireTime time.Duration) (bool, error) {
	return false, nil
}

func (client *baseClient) Wait(ctx context.Context, numberOfReplicas int64, timeout time.Duration) (int64, error) {
	return 0, nil
}

func (client *baseClient) InvokeScript(ctx context.Context, script options.Script) (any, error) {
	return nil, nil
}

func (client *baseClient) InvokeScriptWithOptions(
	ctx context.Context,
	script options.Script,
	scriptOptions options.ScriptOptions,
) (any, error) {
	return nil, nil
}

func (client *baseClient) Watch(ctx context.Context, keys []string) (string, error) { return "OK", nil }

func (client *Client) CustomCommand(ctx context.Context, args []string) (any, error) { return nil, nil }

func (client *Client) Exec(ctx context.Context, batch pipeline.StandaloneBatch, raiseOnError bool) ([]any, error) {
	return nil, nil
}

func (client *Client) ExecWithOptions(
	ctx context.Context,
	batch pipeline.StandaloneBatch,
	raiseOnError bool,
	options pipeline.StandaloneBatchOptions,
) ([]any, error) {
	return nil, nil
}

func (client *ClusterClient) CustomCommand(ctx context.Context, args []string) (models.ClusterValue[any], error) {
	return models.ClusterValue[any]{}, nil
}

func (client *ClusterClient) Exec(ctx context.Context, batch pipeline.ClusterBatch, raiseOnError bool) ([]any, error) {
	return nil, nil
}
