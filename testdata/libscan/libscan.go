// Package libscan only imports the lock libraries lockaudit's libscan test
// analyses from the module cache (analyzers/libscan_test.go), so that
// `go mod tidy` keeps them, at the pinned versions, in go.mod and go.sum.
package libscan

import (
	_ "github.com/bsm/redislock"
	_ "github.com/go-redsync/redsync/v4"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/valkey-io/valkey-go/valkeylock"
)
