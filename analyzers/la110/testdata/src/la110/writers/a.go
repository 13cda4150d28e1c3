// Package writers: LA110 with -LA110.writers=la110/writers.SaveInvoice,(*la110/writers.Store).Put.
package writers

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func SaveInvoice(ctx context.Context, id string, fence int64) error { return nil }

type Store struct{}

func (s *Store) Put(id string) error { return nil }
func (s *Store) Get(id string) error { return nil }

func post(ctx context.Context, rdb *redis.Client, s *Store, id, token string) error {
	cmds, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{inv}", token, 30*time.Second)
		p.Incr(ctx, "fence:{inv}")
		return nil
	})
	if err != nil {
		return err
	}
	fence := cmds[1].(*redis.IntCmd).Val()
	if err := SaveInvoice(ctx, id, fence); err != nil {
		return err
	}
	s.Get(id)
	return s.Put(id) // want `^write s\.Put under the lock of a\.go:20 does not pass the fence of a\.go:21: pass it and check it in the write \(WHERE fence < \$f\)$`
}
