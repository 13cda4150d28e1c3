// Package data: the same embedded compare-and-delete run on a cache entry,
// with no lock anywhere, is a data compare-and-delete: silent.
package data

import (
	"context"

	"github.com/redis/go-redis/v9"

	"la101/embedpkg/scripts"
)

func Evict(ctx context.Context, rdb *redis.Client, id, etag string) error { // want Evict:"judged at callers"
	return rdb.Eval(ctx, scripts.CompareDel, []string{"cache:" + id}, etag).Err()
}
