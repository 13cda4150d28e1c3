// Package la106 defines an Analyzer that reports a lock acquired without a
// TTL (rule LA106, acquire-without-ttl): SET NX with no EX/PX/EXAT/PXAT
// (go-redis SetNX(..., 0), SetArgs{Mode: "NX"}, a builder Nx() then
// Build(), glide SetOnlyIfDoesNotExist without SetExpiry, a raw SET k v NX),
// and the SETNX command (also what go-redis v6-v8 and the compat adapters
// send for SetNX(..., 0)).
//
// When the same function later sends EXPIRE/PEXPIRE/EXPIREAT/PEXPIREAT of
// the same key (same constant, same variable, same Sprintf format or
// concatenation with the same holes, as analyzers/internal/flow decides),
// the finding names that separate command: a crash between the two leaves a
// lock that never expires. Inside one MULTI the window is gone, but the
// EXPIRE then runs even when the acquire failed and moves the current
// holder's deadline; the message says so.
//
// A SET NX whose options the layer could not all see is not reported.
package la106
