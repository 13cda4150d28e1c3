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
package la104
