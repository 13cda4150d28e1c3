// Package la104 defines an Analyzer that reports a SET IFEQ extend without a
// TTL (rule LA104, extend-without-ttl): no EX/PX/EXAT/PXAT, so a successful
// extend drops the key's TTL and the lock becomes permanent (go-redis
// SetIFEQ with expiration 0, SetArgs{Mode: "IFEQ"} without TTL or ExpireAt,
// a valkey-go/rueidis builder Ifeq(...).Build() with no expiry step, glide
// SetOnlyIfEquals without SetExpiry, a raw SET ... IFEQ). A SET IFEQ with
// KEEPTTL is reported with its own message: it keeps the old deadline, so
// the extend does nothing.
//
// A SET whose options the resolve layer could not all see (a non-literal
// SetArgs, spread arguments, a non-constant option) is not reported.
//
// # Suggested fix
//
// The extend gets the lease of the acquire of the same key: the acquires
// of the very same key earlier in the same function when there are any,
// else every acquire of the same key shape in the package. They must all
// set the same relative expiry (EX/PX, a go-redis duration, a builder
// Px/Ex/PxMilliseconds/ExSeconds step; an absolute EXAT/PXAT/ExpireAt is
// no lease), written the same way, and the amount must be visible at the
// extend with the same meaning (fix.Ctx.Visible: a package-level constant or
// variable, or a local of the same function) and stable (fix.Ctx.Stable). The
// unit is kept, and the type must fit:
//
//   - go-redis SetIFEQ/SetIFEQGet(ctx, k, v, m, 0 or redis.KeepTTL): the
//     expiration becomes the acquire's time.Duration;
//   - go-redis SetArgs{Mode: "IFEQ", ...}: TTL: d is added (or replaces a
//     zero TTL, or KeepTTL: true); a duration acquire only;
//   - raw SET ... IFEQ m (redigo Do, go-redis Do): the acquire's expiry
//     arguments are appended as it wrote them ("PX", ms), or replace
//     KEEPTTL; a duration acquire gives "PX", d.Milliseconds();
//   - valkey-go/rueidis ...Ifeq(m)[.Get()].Build(): the expiry step is
//     inserted before Build (or replaces Keepttl()): the acquire's own step
//     for a builder acquire, Px for a duration, ExSeconds/PxMilliseconds
//     for counts, when the chain's type has the step and the amount fits
//     its parameter (an int64 count, a time.Duration).
//
// Glide extends and valkey-go Arbitrary chains (whose arguments are
// strings) get no fix.
package la104
