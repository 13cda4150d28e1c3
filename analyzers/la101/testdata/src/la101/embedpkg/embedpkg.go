// Package embedpkg runs Lua kept in another package's //go:embed variables
// (shape seen in the wild: a lock whose scripts live in a lua package):
// the text is read as if declared here, and a script object built on it
// names the file. The client is go-redis v9's release candidate, still
// at the old module path.
package embedpkg

import (
	"context"
	"time"

	"github.com/go-redis/redis/v9"

	"la101/embedpkg/scripts"
)

type Lock struct {
	rdb   *redis.Client
	key   string
	token string
	ttl   time.Duration
}

func (l *Lock) Obtain(ctx context.Context) (bool, error) {
	res, err := l.rdb.Eval(ctx, scripts.Take, []string{l.key}, l.token, l.ttl.Seconds()).Result() // want `^Lua lock script \(acquire, extend\): `
	return res == "OK", err
}

func (l *Lock) Refresh(ctx context.Context) error {
	return l.rdb.Eval(ctx, scripts.Refresh, []string{l.key}, l.token, l.ttl.Seconds()).Err() // want `^Lua lock script \(extend\): `
}

var refresh = redis.NewScript(scripts.Refresh) // want `^Lua lock script in scripts/refresh\.lua:2 \(extend\): `

func (l *Lock) Extend(ctx context.Context) error {
	return refresh.Run(ctx, l.rdb, []string{l.key}, l.token, l.ttl.Seconds()).Err()
}

// Negative: a rate limiter kept beside them.
func (l *Lock) Hits(ctx context.Context, user string) (int64, error) {
	return l.rdb.Eval(ctx, scripts.Limit, []string{"hits:" + user}, 60).Int64()
}
