// Package la108 defines an Analyzer that reports an extend or release whose
// reply is not examined (rule LA108, lost-lock-ignored).
//
// Extends: SET ... IFEQ, a Lua compare-and-extend script run, a library
// Extend/Refresh. Releases: DELIFEQ, DELEX with a condition, a Lua
// compare-and-delete script run, a library Unlock/Release. A Lua script is
// a lock's extend or release only with lock evidence (keys.ScriptEvidence,
// as LA101 asks): a status compare-and-set of data has the same shape and
// its reply means no lost lock. (A plain DEL
// release is LA103's alone.) Reported when the reply is discarded, or when
// only its error is checked while the reply that means "lost" (0 from
// DELIFEQ/DELEX and the usual Lua scripts, nil from SET IFEQ) is not an
// error. For SET IFEQ on go-redis, valkey-go and rueidis a nil reply comes
// back as an error (redis.Nil, valkey.Nil), and library calls (redsync,
// bsm/redislock) return an error whenever the lock was lost, so there
// checking the error is examining the reply. A reply examined only by a
// comparison that is never true is reported at that comparison: an
// interface-typed reply (redigo's Do, go-redis's Val) compared with an
// integer constant of a type other than int64 (`status == 0`, whose 0 is an
// int), while the clients decode integer replies as int64
// (reply.Comparison). valkeylock/rueidislock release
// through a context.CancelFunc, which has no reply. A release or extend
// whose script the caller passes to a wrapper that reads nothing of the
// reply but its error (return cmd.Err()) is reported at that call: the
// lost-lock reply never reaches the caller, so the wrapper must return it.
// A reply that is stored,
// passed on, returned, or read back through a transaction's results is not
// reported (reply.Of says Examined or Unseen), except one returned by a
// function literal whose results are then dropped: a literal called where
// it is, or the callback of a package function that hands back a value
// (redsync's actOnPoolsAsync in a failed-quorum cleanup). How a reply is used does
// not depend on the command's other arguments, so an op whose arguments
// could not all be seen is still checked once its command is known.
package la108
