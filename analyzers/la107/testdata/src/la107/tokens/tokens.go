package tokens // want package:"token sources"

// A project's helper package that draws tokens: what is underneath
// decides, and its Source facts carry that to the packages that use it
// (la107/tokenuse).

import (
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

const letters = "abcdefghijklmnopqrstuvwxyz0123456789"

type lockedSource struct {
	mu  sync.Mutex
	src rand.Source
}

func (s *lockedSource) Int63() int64 { // want Int63:"weak: math/rand seeded with time.Now"
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.src.Int63()
}

var src = &lockedSource{src: rand.NewSource(time.Now().UnixNano())}

// Randn is go-zero's stringx.Randn: n letters from a time-seeded
// math/rand source, through a byte loop the tracer does not follow.
func Randn(n int) string { // want Randn:"weak: math/rand seeded with time.Now"
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[src.Int63()%int64(len(letters))]
	}
	return string(b)
}

// New draws 20 bytes from crypto/rand.
func New() string { // want New:"strong"
	b := make([]byte, 20)
	if _, err := crand.Read(b); err != nil {
		return ""
	}
	return hex.EncodeToString(b)
}

// Mixed falls back to Randn only when crypto/rand fails: a failure path
// (crypto/rand's Read does not fail on a working system), not what it
// draws.
func Mixed() string { // want Mixed:"strong"
	b := make([]byte, 8)
	if _, err := crand.Read(b); err != nil {
		return Randn(8)
	}
	return hex.EncodeToString(b)
}

var seq uint64

// Prefixed is a counter, which the tracer does not follow, in front of
// crypto/rand bytes: strong whatever comes first.
func Prefixed() string { // want Prefixed:"strong"
	b := make([]byte, 16)
	crand.Read(b)
	return fmt.Sprintf("%d-%s", atomic.AddUint64(&seq, 1), hex.EncodeToString(b))
}

// Either draws from Randn whenever its caller asks: neither always weak
// nor always strong.
func Either(fast bool) string {
	if fast {
		return Randn(8)
	}
	b := make([]byte, 8)
	if _, err := crand.Read(b); err != nil {
		return ""
	}
	return hex.EncodeToString(b)
}

// Label draws nothing.
func Label(name string) string { return "lock:" + name }

// DefaultGenerator is nyaruka/gocommon's random package: a time-seeded
// generator that SetGenerator may replace (with a test's seeded one).
var DefaultGenerator = rand.New(rand.NewSource(time.Now().UnixNano()))

var (
	current = DefaultGenerator
	mu      sync.Mutex
)

func SetGenerator(r *rand.Rand) { current = r }

// IntN draws from the current generator: the time-seeded default unless
// replaced. An integer a caller picks a token's characters with.
func IntN(n int) int { // want IntN:"weak: math/rand seeded with time.Now"
	mu.Lock()
	defer mu.Unlock()
	return current.Intn(n)
}

// StrongIntN draws from math/rand/v2's runtime-seeded generator.
func StrongIntN(n int) int { // want StrongIntN:"strong"
	return randv2.IntN(n)
}

var strongDefault = randv2.New(randv2.NewChaCha8(seed()))

func seed() [32]byte {
	var b [32]byte
	_, _ = crand.Read(b[:])
	return b
}

func SetStrong(r *randv2.Rand) { strongDefault = r }

// Replaced draws from a crypto-seeded default a setter may replace with
// anything: neither weak nor strong.
func Replaced(n int) int { return strongDefault.IntN(n) }
