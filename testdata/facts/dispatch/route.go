package dispatch

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/randmod/random"
)

const base64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// routeToken picks its characters with another module's random numbers.
func routeToken(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = base64Chars[random.IntN(64)]
	}
	return string(b)
}

// Route plans a courier's route under the order's lock.
func Route(ctx context.Context, rdb *redis.Client, orderID string) (bool, error) {
	return rdb.SetNX(ctx, "lock:route:"+orderID, routeToken(10), time.Minute).Result() // LA107: the token comes from math/rand, through random.IntN of another module
}
