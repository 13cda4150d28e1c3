// Package reentrant: a reentrant lock's token is its owner's identity, kept
// for the owner's re-acquires (a GET compared with it, a hold count). It
// must be unique per owner: drawn once per owner from crypto/rand it is
// sound, from the host name and pid it is not, and the advice says so.
package reentrant

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

type Mutex struct {
	rdb   *redis.Client
	key   string
	owner string
	holds int
}

func NewMutex(rdb *redis.Client, key string) *Mutex {
	h, _ := os.Hostname()
	return &Mutex{rdb: rdb, key: key, owner: h + ":" + strconv.Itoa(os.Getpid())}
}

// Lock re-enters when this owner already holds the key.
func (m *Mutex) Lock(ctx context.Context) bool {
	if m.rdb.Get(ctx, m.key).Val() == m.owner {
		m.holds++
		return true
	}
	ok := m.rdb.SetNX(ctx, m.key, m.owner, ttl).Val() // want `^reentrant lock's owner id is not unique per owner: it comes from field owner set once by NewMutex, os\.Hostname and os\.Getpid; use crypto/rand once per owner$`
	if ok {
		m.holds = 1
	}
	return ok
}

// Counted re-enters by a hold count alone.
type Counted struct {
	rdb   *redis.Client
	key   string
	owner string
	count int
}

var processOwner = strconv.Itoa(os.Getpid())

func (c *Counted) Lock(ctx context.Context) bool {
	if c.count > 0 {
		c.count++
		return true
	}
	ok := c.rdb.SetNX(ctx, c.key, processOwner, ttl).Val() // want `^reentrant lock's owner id is not unique per owner: it comes from the package-level variable processOwner;`
	if ok {
		c.count++
	}
	return ok
}

// Negative: the owner id drawn once per owner from crypto/rand.
type Good struct {
	rdb   *redis.Client
	key   string
	owner string
	holds int
}

func NewGood(rdb *redis.Client, key string) *Good {
	b := make([]byte, 20)
	crand.Read(b)
	return &Good{rdb: rdb, key: key, owner: hex.EncodeToString(b)}
}

func (g *Good) Lock(ctx context.Context) bool {
	if g.rdb.Get(ctx, g.key).Val() == g.owner {
		g.holds++
		return true
	}
	return g.rdb.SetNX(ctx, g.key, g.owner, ttl).Val()
}

// A lock that is not reentrant keeps the per-acquisition rule: the same
// crypto/rand token drawn once per object is reused by every acquire.
type Plain struct {
	rdb   *redis.Client
	key   string
	owner string
}

func NewPlain(rdb *redis.Client, key string) *Plain {
	b := make([]byte, 20)
	crand.Read(b)
	return &Plain{rdb: rdb, key: key, owner: hex.EncodeToString(b)}
}

func (p *Plain) Lock(ctx context.Context) bool {
	return p.rdb.SetNX(ctx, p.key, p.owner, ttl).Val() // want `^lock token is not unique per acquisition: it comes from field owner set once by NewPlain;`
}
