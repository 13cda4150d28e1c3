// Package keyer: lock keys built by another package's key builder,
// through an interface, with constant arguments: the same builder on the
// same receiver with the same arguments is the same key.
package keyer

import (
	"context"
	"os"
	"time"

	"github.com/redis/go-redis/v9"

	"la114/keyer/contract"
)

// Driver is a leader election (DoNewsCode/core's leaderredis).
type Driver struct {
	client     redis.UniversalClient
	keyer      contract.Keyer
	clock      contract.Clock
	expiration time.Duration
}

// Campaign takes the leader key and renews it with a bare EXPIRE in a
// goroutine.
func (d *Driver) Campaign(ctx context.Context) error {
	host, _ := os.Hostname()
	ok, err := d.client.SetNX(ctx, d.keyer.Key(":", "leader"), host, d.expiration).Result()
	if err != nil || !ok {
		return err
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(d.expiration / 4):
				d.client.Expire(ctx, d.keyer.Key(":", "leader"), d.expiration) // want "^EXPIRE of lock key `d\\.keyer\\.Key\\(\":\", \"leader\"\\)` extends whoever holds it now"
			}
		}
	}()
	return nil
}

// Resign releases the leader key with a Lua compare-and-delete: the owner
// check that makes the key a lock's.
func (d *Driver) Resign(ctx context.Context) error {
	host, _ := os.Hostname()
	return d.client.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{d.keyer.Key(":", "leader")}, host).Err()
}

// Negatives: a cache refresher's EXPIRE in a goroutine, its key built by
// the same builder with other arguments; a key from a builder without
// arguments (it may build a new one each time).

func (d *Driver) Refresh(ctx context.Context) {
	d.client.Set(ctx, d.keyer.Key(":", "cache", "leaders"), "v", time.Minute)
	go func() {
		for range time.Tick(time.Second) {
			d.client.Expire(ctx, d.keyer.Key(":", "cache", "leaders"), time.Minute)
		}
	}()
}

func (d *Driver) Stamp(ctx context.Context) error {
	ok, err := d.client.SetNX(ctx, d.clock.Stamp(), "1", time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	go func() {
		d.client.Expire(ctx, d.clock.Stamp(), time.Minute)
	}()
	return nil
}
