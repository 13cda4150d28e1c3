package valkeylock

import (
	"context"

	"github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeylock"
)

func job(ctx context.Context) error {
	locker, err := valkeylock.NewLocker(valkeylock.LockerOption{ClientOption: valkey.ClientOption{InitAddress: []string{"localhost:6379"}}}) // want `valkeylock.NewLocker \(locker\) runs Lua`
	if err != nil {
		return err
	}
	defer locker.Close()
	lctx, cancel, err := locker.WithContext(ctx, "job") // want `Locker.WithContext \(acquire\)`
	if err != nil {
		return err
	}
	defer cancel()
	_, c2, _ := locker.TryWithContext(lctx, "other") // want `Locker.TryWithContext \(acquire\)`
	defer c2()
	_, c3, _ := locker.ForceWithContext(lctx, "other") // want `Locker.ForceWithContext \(acquire\)`
	defer c3()
	_ = locker.Client()
	return nil
}
