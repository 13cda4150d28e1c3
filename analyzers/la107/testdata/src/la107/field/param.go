package field

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// A lock whose token field its constructor sets from its caller's
// parameter (New(key, value, client)): judged at the callers. Nothing here
// calls NewShardLock, so its callers choose: silent.
type ShardLock struct {
	rdb   *redis.Client
	key   string
	value string
}

func NewShardLock(key, value string, rdb *redis.Client) *ShardLock { // want NewShardLock:"token parameter 1"
	return &ShardLock{key: key, value: value, rdb: rdb}
}

func (l *ShardLock) Lock(ctx context.Context, ttl time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.value, ttl).Result()
}

// NewJobLock's callers in this package pass a fresh uuid per lock object:
// silent.
type JobLock struct {
	rdb   *redis.Client
	key   string
	value string
}

func NewJobLock(key, value string, rdb *redis.Client) *JobLock { // want NewJobLock:"token parameter 1"
	l := &JobLock{key: key, rdb: rdb}
	l.value = value
	return l
}

func (l *JobLock) Lock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.value, time.Minute).Result()
}

func runJob(ctx context.Context, rdb *redis.Client, job string) {
	NewJobLock("lock:"+job, uuid.New().String(), rdb).Lock(ctx)
}

// NewNamedLock is called here with a constant token: every object writes
// the same value.
type NamedLock struct {
	rdb   *redis.Client
	key   string
	value string
}

func NewNamedLock(key, value string, rdb *redis.Client) *NamedLock { // want NewNamedLock:"token parameter 1"
	return &NamedLock{key: key, value: value, rdb: rdb}
}

func (l *NamedLock) Lock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.value, time.Minute).Result() // want `^lock token is not unique per acquisition: it comes from field value set once by NewNamedLock and the constant "worker";`
}

func runNamed(ctx context.Context, rdb *redis.Client) {
	NewNamedLock("lock:named", "worker", rdb).Lock(ctx)
}
