// Package ctoruse passes tokens to another package's lock constructor
// (la107/ctorlock), whose TokenParam fact says which parameter the lock
// writes as its token.
package ctoruse

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"github.com/redis/go-redis/v9"

	"la107/ctorlock"
)

type Pool struct {
	ctx      context.Context
	rdb      *redis.Client
	hostname string
	interval time.Duration
}

func NewPool(ctx context.Context, rdb *redis.Client) *Pool {
	host, _ := os.Hostname()
	return &Pool{ctx: ctx, rdb: rdb, hostname: host, interval: time.Minute}
}

// runReaper draws the lock value once, before its loop, from the host
// name and the time, and every tick builds a lock with it.
func (p *Pool) runReaper() {
	lockValue := fmt.Sprintf("%s:%d", p.hostname, time.Now().UnixNano())
	ticker := time.NewTicker(p.interval)
	defer ticker.Stop()
	for range ticker.C {
		p.tryRunReaper("reaper", lockValue)
	}
}

func (p *Pool) tryRunReaper(key, value string) {
	dl := ctorlock.NewDistributedLock(p.rdb, key, value, p.interval) // want `^lock token passed to ctorlock\.NewDistributedLock is not unique per acquisition: it comes from os\.Hostname and time\.Now;`
	if ok, err := dl.Acquire(p.ctx); err != nil || !ok {
		return
	}
}

func direct(ctx context.Context, rdb *redis.Client) {
	dl := ctorlock.NewDistributedLock(rdb, "job", "1", time.Minute) // want `^lock token passed to ctorlock\.NewDistributedLock is not unique per acquisition: it comes from the constant "1";`
	dl.Acquire(ctx)
}

// Negatives: a fresh token per tick, the caller's own choice (an exported
// function's parameter), a method an interface of the package may call,
// and a constructor whose parameter is no token.

func fresh() string {
	b := make([]byte, 20)
	crand.Read(b)
	return hex.EncodeToString(b)
}

func (p *Pool) runFresh() {
	for range time.Tick(p.interval) {
		p.tryFresh("reaper", fresh())
	}
}

func (p *Pool) tryFresh(key, value string) {
	dl := ctorlock.NewDistributedLock(p.rdb, key, value, p.interval)
	dl.Acquire(p.ctx)
}

func Lock(ctx context.Context, rdb *redis.Client, key, value string) {
	ctorlock.NewDistributedLock(rdb, key, value, time.Minute).Acquire(ctx)
}

type reaper interface{ tryViaIface(key, value string) }

func (p *Pool) runViaIface() {
	p.tryViaIface("reaper", "1")
}

func (p *Pool) tryViaIface(key, value string) {
	ctorlock.NewDistributedLock(p.rdb, key, value, p.interval).Acquire(p.ctx)
}

var _ reaper = (*Pool)(nil)

func own(ctx context.Context, rdb *redis.Client) {
	ctorlock.NewOwnLock(rdb, "job", "reaper").Acquire(ctx)
}
