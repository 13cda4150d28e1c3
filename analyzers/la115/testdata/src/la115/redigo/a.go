// Package redigo: LA115 on redigo.
package redigo

import "github.com/gomodule/redigo/redis"

func positives(c redis.Conn) error {
	c.Do("WAIT", 1, 100)           // want `^reply of WAIT is discarded`
	_, err := c.Do("wait", 1, 100) // want `^only the error of WAIT is checked`
	if err != nil {
		return err
	}
	_, err = redis.Int(c.Do("WAIT", 1, 100)) // want `^only the error of WAIT is checked`
	return err
}

func negatives(c redis.Conn) (int, error) {
	n, err := redis.Int(c.Do("WAIT", 1, 100))
	if err == nil && n == 0 {
		return 0, nil
	}
	reply, err := c.Do("WAITAOF", 1, 1, 100)
	acks := reply.([]interface{})
	return len(acks), err
}
