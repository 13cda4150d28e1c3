// Package la102 defines an Analyzer that reports calls into lock libraries
// that do their lock steps in Lua (rule LA102, lua-lock-library):
//
//   - redsync (github.com/go-redsync/redsync/v4): Mutex Unlock,
//     UnlockContext, Extend, ExtendContext. redsync acquires natively
//     (SET NX PX), so Lock/TryLock are not reported.
//   - bsm/redislock: Obtain, Client.Obtain, Lock.Refresh, Lock.Release,
//     Lock.TTL (every step is a Lua script).
//   - valkeylock and rueidislock: NewLocker and Locker.WithContext,
//     TryWithContext, ForceWithContext (every step is a Lua script; the
//     release runs when the returned cancel function is called).
//
// The message says which of the library's steps use Lua, that they fail
// where Lua is absent, and that EVALSHA answers NOSCRIPT after a failover.
package la102
