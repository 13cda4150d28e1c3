// Package redis is a stub of github.com/redis/go-redis/v9 (v9.23.0) for
// lockaudit's analyzer tests: only what the tests call, with the real
// signatures and receiver shapes (commands on the embedded unexported
// cmdable func type; interfaces that declare them again).
package redis
