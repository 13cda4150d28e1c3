// Package pipeline is a stub of github.com/valkey-io/valkey-glide/go/v2/pipeline (v2.5.3).
package pipeline

import (
	"time"

	"github.com/valkey-io/valkey-glide/go/v2/options"
)

type batch struct {
	IsAtomic bool
	Commands [][]string
}

// BaseBatch is the base structure for both standalone and cluster batch implementations.
type BaseBatch[T StandaloneBatch | ClusterBatch] struct {
	batch
	self *T
}

type StandaloneBatch struct {
	BaseBatch[StandaloneBatch]
}

type ClusterBatch struct {
	BaseBatch[ClusterBatch]
}

func NewStandaloneBatch(isAtomic bool) *StandaloneBatch {
	b := StandaloneBatch{BaseBatch: BaseBatch[StandaloneBatch]{batch: batch{IsAtomic: isAtomic}}}
	b.self = &b
	return &b
}

func NewClusterBatch(isAtomic bool) *ClusterBatch {
	b := ClusterBatch{BaseBatch: BaseBatch[ClusterBatch]{batch: batch{IsAtomic: isAtomic}}}
	b.self = &b
	return &b
}

func (b *BaseBatch[T]) addCmd(args ...string) *T {
	b.Commands = append(b.Commands, args)
	return b.self
}

func (b *BaseBatch[T]) CustomCommand(args []string) *T { return b.addCmd(args...) }

func (b *BaseBatch[T]) Set(key string, value string) *T { return b.addCmd("SET", key, value) }

func (b *BaseBatch[T]) SetWithOptions(key string, value string, options options.SetOptions) *T {
	return b.addCmd("SET", key, value)
}

func (b *BaseBatch[T]) Incr(key string) *T { return b.addCmd("INCR", key) }

func (b *BaseBatch[T]) Del(keys []string) *T { return b.addCmd(append([]string{"DEL"}, keys...)...) }

func (b *BaseBatch[T]) PExpire(key string, expireTime time.Duration) *T {
	return b.addCmd("PEXPIRE", key)
}

func (b *BaseBatch[T]) Wait(numberOfReplicas int64, timeout time.Duration) *T {
	return b.addCmd("WAIT")
}

type StandaloneBatchOptions struct {
	Timeout *time.Duration
}
