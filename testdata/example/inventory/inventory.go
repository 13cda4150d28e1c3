// Package inventory locks stock items with redigo.
package inventory

import (
	"os"

	"github.com/gomodule/redigo/redis"

	"example.com/orders/lock"
)

// Reserve takes one item out of stock under the item's lock.
func Reserve(pool *redis.Pool, sku string) error {
	conn := pool.Get()
	defer conn.Close()

	lockKey := "lock:sku:" + sku
	host, _ := os.Hostname()
	ok, err := redis.String(conn.Do("SET", lockKey, host, "NX", "PX", lock.TTL.Milliseconds())) // LA107: every process on this host writes the same token
	if err == redis.ErrNil {
		return lock.ErrBusy
	}
	if err != nil || ok != "OK" {
		return err
	}

	// ... decrement the stock ...

	_, err = conn.Do("DEL", lockKey) // LA103: deletes the lock even when it is someone else's by now
	return err
}

// Restock adds items to stock under the item's lock.
func Restock(pool *redis.Pool, sku string) error {
	conn := pool.Get()
	defer conn.Close()

	lockKey := "lock:sku:" + sku
	token, err := lock.NewToken()
	if err != nil {
		return err
	}
	set, err := redis.Int(conn.Do("SETNX", lockKey, token)) // LA106: no TTL until the EXPIRE below arrives
	if err != nil {
		return err
	}
	if set == 0 {
		return lock.ErrBusy
	}
	if _, err := conn.Do("EXPIRE", lockKey, 30); err != nil {
		return err
	}

	// ... add the items ...

	n, err := redis.Int(conn.Do("DELIFEQ", lockKey, token))
	if err != nil {
		return err
	}
	if n == 0 {
		return lock.ErrLost
	}
	return nil
}

// Heartbeat keeps an item's lock alive during a long stock count.
func Heartbeat(conn redis.Conn, sku string) error {
	_, err := conn.Do("PEXPIRE", "lock:sku:"+sku, lock.TTL.Milliseconds()) // LA114: extends the lock whoever holds it now
	return err
}
