// Package la114 defines an Analyzer that reports a lock extended with
// PEXPIRE, EXPIRE, PEXPIREAT or EXPIREAT (rule LA114,
// extend-without-owner-check).
//
// Lock keys are decided as for LA103 (keys.LockKeyAt: lock evidence, the
// lock-key pattern of flag -LA114.lock-key-pattern, the same setting as
// -LA103.lock-key-pattern). A key built by another package's builder with
// constant arguments (r.keyer.Key(":", "leader"), through an interface) is
// the same key wherever the same builder on the same receiver is called
// with the same arguments. Not reported: the one EXPIRE that completes a
// TTL-less acquire (SETNX, SET NX without a TTL) of the same key, which is
// LA106's finding (keys.AcquireExpire: the first such EXPIRE after it in
// the same function body, outside any loop the acquire is not in); an
// EXPIRE queued in a MULTI after a WATCH or a GET of the same key (an
// optimistic compare-and-extend); and an op whose arguments could not all
// be seen. Every other EXPIRE of a lock key is reported: a renew in a loop
// or a goroutine, one after a GETSET takeover; one after a GET check in
// another round trip gets its own message (the check and the expire race).
// The advice is SET IFEQ with a lease where every -target has it, else a
// Lua compare-and-extend.
//
// Two more extends without an owner check are reported: a Lua script that
// PEXPIREs a key it never compares (go-redisson's watchdog: EXISTS then
// PEXPIRE; lua.Detail.Expires), at each run that passes it a lock key; and
// a SET without NX or IFEQ that re-writes the lock's token (the value of
// the key's acquire) with a TTL outside the acquire's function (magicLibs'
// AddTimeOut). A script's PEXPIRE of a key it has just set is its TTL, not
// an extend; a compare-and-extend in Lua is LA101's; a SET of another value
// (a marker) or without a TTL is no extend.
package la114
