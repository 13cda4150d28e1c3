// Package oldredsync: redsync before /v4 (go-micro's lock plugin on
// v1.3.1, /v3): the same library, its release and extend the same Lua.
package oldredsync

import (
	"errors"
	"time"

	"github.com/go-redsync/redsync"
	redsync3 "github.com/go-redsync/redsync/v3"
)

func release(rs *redsync.Redsync, id string) error {
	m := rs.NewMutex("lock:"+id, redsync.SetExpiry(10*time.Second))
	if err := m.Lock(); err != nil { // native SET NX PX: not reported
		return err
	}
	if !m.Extend() { // want `^Mutex.Extend \(extend\) runs Lua: use SET key token IFEQ token PX ttl instead$`
		return errors.New("lost")
	}
	if unlocked := m.Unlock(); !unlocked { // want `^Mutex.Unlock \(release\) runs Lua: use DELIFEQ key token instead$`
		return errors.New("lock not unlocked")
	}
	return nil
}

func releaseV3(rs *redsync3.Redsync, id string) error {
	m := rs.NewMutex("lock:" + id)
	if err := m.Lock(); err != nil {
		return err
	}
	ok, err := m.Unlock() // want `^Mutex.Unlock \(release\) runs Lua`
	if !ok {
		return errors.New("lost")
	}
	return err
}
