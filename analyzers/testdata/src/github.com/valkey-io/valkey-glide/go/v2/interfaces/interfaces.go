// Package interfaces is a stub of github.com/valkey-io/valkey-glide/go/v2/interfaces (v2.5.3).
package interfaces

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-glide/go/v2/models"
	"github.com/valkey-io/valkey-glide/go/v2/options"
)

type StringCommands interface {
	Set(ctx context.Context, key string, value string) (string, error)
	SetWithOptions(ctx context.Context, key string, value string, options options.SetOptions) (models.Result[string], error)
	Get(ctx context.Context, key string) (models.Result[string], error)
	Incr(ctx context.Context, key string) (int64, error)
}

type GenericBaseCommands interface {
	Del(ctx context.Context, keys []string) (int64, error)
	PExpire(ctx context.Context, key string, expireTime time.Duration) (bool, error)
}

type ScriptingAndFunctionBaseCommands interface {
	InvokeScript(ctx context.Context, script options.Script) (any, error)
	InvokeScriptWithOptions(ctx context.Context, script options.Script, scriptOptions options.ScriptOptions) (any, error)
}

type BaseClientCommands interface {
	StringCommands
	GenericBaseCommands
	ScriptingAndFunctionBaseCommands
	Close()
}

type GlideClientCommands interface {
	BaseClientCommands
	CustomCommand(ctx context.Context, args []string) (any, error)
}
