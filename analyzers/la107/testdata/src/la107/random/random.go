// Package random: the randomness model. A token drawn from math/rand is as
// strong as its generator's seed: crypto/rand (directly or through a
// generator kept in a struct) is strong, the time or a constant is weak and
// the message says which; math/rand/v2's runtime-seeded functions are
// strong.
package random

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"math/rand"
	randv2 "math/rand/v2"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

// gen is livekit's guid generator: ChaCha8 seeded from crypto/rand.
type gen struct{ rng *randv2.ChaCha8 }

func newGen() *gen {
	var seed [32]byte
	if _, err := crand.Read(seed[:]); err != nil {
		panic(err)
	}
	return newGenFromSeed(seed)
}

func newGenFromSeed(seed [32]byte) *gen { return &gen{rng: randv2.NewChaCha8(seed)} }

func (g *gen) token() string {
	return strconv.FormatUint(g.rng.Uint64(), 36) + strconv.FormatUint(g.rng.Uint64(), 36)
}

var timeRand = rand.New(rand.NewSource(time.Now().UnixNano()))

func chacha(ctx context.Context, rdb *redis.Client) {
	var seed [32]byte
	crand.Read(seed[:])
	rng := randv2.New(randv2.NewChaCha8(seed))
	rdb.SetNX(ctx, "lock:a", strconv.FormatUint(rng.Uint64(), 36), ttl)
	rdb.SetNX(ctx, "lock:b", newGen().token(), ttl)
	rdb.SetNX(ctx, "lock:c", randv2.Uint64(), ttl) // the runtime's ChaCha8, seeded by the OS
	b := make([]byte, 8)
	crand.Read(b)
	src := rand.New(rand.NewSource(int64(binary.BigEndian.Uint64(b))))
	rdb.SetNX(ctx, "lock:d", src.Int63(), ttl)
}

func seeded(ctx context.Context, rdb *redis.Client) {
	pcg := randv2.New(randv2.NewPCG(uint64(time.Now().UnixNano()), 1))
	rdb.SetNX(ctx, "lock:e", pcg.Uint64(), ttl)     // want `it comes from math/rand/v2 PCG seeded with time\.Now;`
	rdb.SetNX(ctx, "lock:f", timeRand.Int63(), ttl) // want `it comes from math/rand seeded with time\.Now;`
	fixed := randv2.New(randv2.NewChaCha8([32]byte{}))
	rdb.SetNX(ctx, "lock:g", fixed.Uint64(), ttl) // want `it comes from math/rand/v2 ChaCha8 seeded with a constant;`
	rdb.SetNX(ctx, "lock:h", rand.Int63(), ttl)   // want `it comes from math/rand's global source;`
}
