// Package tokens draws the service's lock tokens.
package tokens

import (
	"math/rand"
	"time"
)

const letters = "abcdefghijklmnopqrstuvwxyz0123456789"

var src = rand.New(rand.NewSource(time.Now().UnixNano()))

// Courier returns a 16-letter token.
func Courier() string {
	b := make([]byte, 16)
	for i := range b {
		b[i] = letters[src.Intn(len(letters))]
	}
	return string(b)
}
