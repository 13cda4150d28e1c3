// Package random is a shared helper module's random numbers (nyaruka's
// gocommon/random): a time-seeded default generator a test may replace.
package random

import (
	"math/rand"
	"sync"
	"time"
)

// DefaultGenerator is the generator unless SetGenerator replaces it.
var DefaultGenerator = rand.New(rand.NewSource(time.Now().UnixNano()))

var (
	current = DefaultGenerator
	mu      sync.Mutex
)

// SetGenerator replaces the generator (tests seed one).
func SetGenerator(r *rand.Rand) {
	mu.Lock()
	defer mu.Unlock()
	current = r
}

// IntN returns a number in [0, n).
func IntN(n int) int {
	mu.Lock()
	defer mu.Unlock()
	return current.Intn(n)
}
