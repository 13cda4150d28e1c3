// Package la102 defines an Analyzer that reports calls into lock libraries
// that do their lock steps in Lua (rule LA102, lua-lock-library):
//
//   - redsync (github.com/go-redsync/redsync/v4): Mutex Unlock,
//     UnlockContext, Extend, ExtendContext. redsync acquires natively
//     (SET NX PX), so Lock/TryLock are not reported. The same for redsync
//     before v4 (github.com/go-redsync/redsync v1, /v2, /v3): Mutex Unlock
//     and Extend, whose false result says the lock was lost.
//   - bsm/redislock: Obtain, Client.Obtain, Lock.Refresh, Lock.Release,
//     Lock.TTL (every step is a Lua script).
//   - valkeylock and rueidislock: NewLocker and Locker.WithContext,
//     TryWithContext, ForceWithContext (every step is a Lua script; the
//     release runs when the returned cancel function is called).
//
// A step is reported only where every -target has its native form (the
// catalog's "Advice on the -target list"): an extend where every target
// has SET IFEQ; a release, a Lua acquire, a locker or a TTL read where
// every target has one native release. Elsewhere the library's Lua is the
// correct lock for the fleet (its acquire cannot be replaced alone: the
// release it pairs with must stay Lua). The message names the step and the
// native commands for the target; why Lua is a risk is the catalog's.
//
// A library acquire that is a write-once claim is no lock and is not
// reported (keys.LibraryClaim: it is called on a lock object built in a
// local that never leaves the function, the library releases by a call,
// nothing of it is released or extended in the package, and the key is no
// lock key and says nothing of a lock: go-queue's RedisLock on a message
// digest, left to expire), as a SET NX dedup marker is no lock. A lock
// handed to callers is released there and stays reported.
package la102
