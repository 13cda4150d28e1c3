// Package ndb is a generic Redis helper behind an interface (nfgo's
// ndb.RedisOper): DeleteByKeyValue GETs the key, compares the reply with
// the value in Go and DELs in a second round trip. Its key and value are
// its callers': judged at each call, not here.
package ndb

import "github.com/gomodule/redigo/redis"

type RedisOper interface {
	Conn() redis.Conn
	DeleteByKeyValue(key string, val string) error
	DeleteStale(key string) error
}

type redisOperImpl struct{ pool *redis.Pool }

func NewRedisOper(pool *redis.Pool) RedisOper { return &redisOperImpl{pool: pool} }

func (r *redisOperImpl) Conn() redis.Conn { return r.pool.Get() }

func (r *redisOperImpl) DeleteByKeyValue(key string, val string) error {
	conn := r.pool.Get()
	defer conn.Close()
	v, err := redis.String(conn.Do("GET", key))
	if err != nil {
		if err == redis.ErrNil {
			return nil
		}
		return err
	}
	if val == v {
		_, err = conn.Do("DEL", key)
		return err
	}
	return nil
}

// DeleteStale GETs then DELs with no comparison: no owner check to race.
func (r *redisOperImpl) DeleteStale(key string) error {
	conn := r.pool.Get()
	defer conn.Close()
	if _, err := conn.Do("GET", key); err != nil {
		return err
	}
	_, err := conn.Do("DEL", key)
	return err
}
