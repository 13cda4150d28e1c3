// Package cmds is a stub of github.com/redis/rueidis/internal/cmds
// (v1.0.79) for lockaudit's analyzer tests, extracted from the real source:
// the builder steps of the commands lockaudit resolves, with their real
// signatures and state types, and trivial bodies.
package cmds

import "time"

var _ time.Duration

// Builder builds commands.
type Builder struct{ ks uint16 }

// Incomplete represents an incomplete command.
type Incomplete struct {
	cs *CommandSlice
	cf int16
	ks uint16
}

// Completed represents a completed command.
type Completed struct {
	cs *CommandSlice
	cf uint16
	ks uint16
}

// Cacheable represents a completed command that supports client side caching.
type Cacheable Completed

// CommandSlice is the command container.
type CommandSlice struct{ s []string }

// Commands returns the command tokens.
func (c Completed) Commands() []string { return c.cs.s }

type Arbitrary Completed

type Del Incomplete

type DelKey Incomplete

type Delex Incomplete

type DelexConditionIfdeq Incomplete

type DelexConditionIfdne Incomplete

type DelexConditionIfeq Incomplete

type DelexConditionIfne Incomplete

type DelexKey Incomplete

type Delifeq Incomplete

type DelifeqKey Incomplete

type DelifeqValue Incomplete

type Digest Incomplete

type DigestKey Incomplete

type Discard Incomplete

type Eval Incomplete

type EvalArg Incomplete

type EvalKey Incomplete

type EvalNumkeys Incomplete

type EvalRo Incomplete

type EvalRoArg Incomplete

type EvalRoKey Incomplete

type EvalRoNumkeys Incomplete

type EvalRoScript Incomplete

type EvalScript Incomplete

type Evalsha Incomplete

type EvalshaArg Incomplete

type EvalshaKey Incomplete

type EvalshaNumkeys Incomplete

type EvalshaRo Incomplete

type EvalshaRoArg Incomplete

type EvalshaRoKey Incomplete

type EvalshaRoNumkeys Incomplete

type EvalshaRoSha1 Incomplete

type EvalshaSha1 Incomplete

type Exec Incomplete

type Expire Incomplete

type ExpireConditionGt Incomplete

type ExpireConditionLt Incomplete

type ExpireConditionNx Incomplete

type ExpireConditionXx Incomplete

type ExpireKey Incomplete

type ExpireSeconds Incomplete

type Get Incomplete

type GetKey Incomplete

type Getdel Incomplete

type GetdelKey Incomplete

type Incr Incomplete

type IncrKey Incomplete

type Incrby Incomplete

type IncrbyIncrement Incomplete

type IncrbyKey Incomplete

type Multi Incomplete

type Pexpire Incomplete

type PexpireConditionGt Incomplete

type PexpireConditionLt Incomplete

type PexpireConditionNx Incomplete

type PexpireConditionXx Incomplete

type PexpireKey Incomplete

type PexpireMilliseconds Incomplete

type Pexpireat Incomplete

type PexpireatConditionGt Incomplete

type PexpireatConditionLt Incomplete

type PexpireatConditionNx Incomplete

type PexpireatConditionXx Incomplete

type PexpireatKey Incomplete

type PexpireatMillisecondsTimestamp Incomplete

type Pttl Incomplete

type PttlKey Incomplete

type ScriptLoad Incomplete

type ScriptLoadScript Incomplete

type Set Incomplete

type SetConditionIfdeq Incomplete

type SetConditionIfdne Incomplete

type SetConditionIfeq Incomplete

type SetConditionIfne Incomplete

type SetConditionNx Incomplete

type SetConditionXx Incomplete

type SetExpirationExSecTyped Incomplete

type SetExpirationExSeconds Incomplete

type SetExpirationExatTimestamp Incomplete

type SetExpirationExatTimestampTyped Incomplete

type SetExpirationKeepttl Incomplete

type SetExpirationPxMilliseconds Incomplete

type SetExpirationPxMsTyped Incomplete

type SetExpirationPxatMillisecondsTimestamp Incomplete

type SetExpirationPxatMsTimestampTyped Incomplete

type SetGet Incomplete

type SetKey Incomplete

type SetValue Incomplete

type Setnx Incomplete

type SetnxKey Incomplete

type SetnxValue Incomplete

type Unlink Incomplete

type UnlinkKey Incomplete

type Wait Incomplete

type WaitNumreplicas Incomplete

type WaitTimeout Incomplete

type Waitaof Incomplete

type WaitaofNumlocal Incomplete

type WaitaofNumreplicas Incomplete

type WaitaofTimeout Incomplete

type Watch Incomplete

type WatchKey Incomplete

func (c Arbitrary) Args(args ...string) Arbitrary { return c }

func (c Arbitrary) Blocking() Completed { return Completed{} }

func (c Arbitrary) Build() Completed { return Completed{} }

func (c Arbitrary) Keys(keys ...string) Arbitrary { return c }

func (c Arbitrary) MultiGet() Completed { return Completed{} }

func (c Arbitrary) ReadOnly() Completed { return Completed{} }

func (b Builder) Arbitrary(token ...string) (c Arbitrary) { return }

func (b Builder) Del() (c Del) { return }

func (b Builder) Delex() (c Delex) { return }

func (b Builder) Delifeq() (c Delifeq) { return }

func (b Builder) Digest() (c Digest) { return }

func (b Builder) Discard() (c Discard) { return }

func (b Builder) Eval() (c Eval) { return }

func (b Builder) EvalRo() (c EvalRo) { return }

func (b Builder) Evalsha() (c Evalsha) { return }

func (b Builder) EvalshaRo() (c EvalshaRo) { return }

func (b Builder) Exec() (c Exec) { return }

func (b Builder) Expire() (c Expire) { return }

func (b Builder) Get() (c Get) { return }

func (b Builder) Getdel() (c Getdel) { return }

func (b Builder) Incr() (c Incr) { return }

func (b Builder) Incrby() (c Incrby) { return }

func (b Builder) Multi() (c Multi) { return }

func (b Builder) Pexpire() (c Pexpire) { return }

func (b Builder) Pexpireat() (c Pexpireat) { return }

func (b Builder) Pttl() (c Pttl) { return }

func (b Builder) ScriptLoad() (c ScriptLoad) { return }

func (b Builder) Set() (c Set) { return }

func (b Builder) Setnx() (c Setnx) { return }

func (b Builder) Unlink() (c Unlink) { return }

func (b Builder) Wait() (c Wait) { return }

func (b Builder) Waitaof() (c Waitaof) { return }

func (b Builder) Watch() (c Watch) { return }

func (c Cacheable) Pin() Cacheable { return c }

func (c Cacheable) ToStaticTTL() Cacheable { return c }

func (c Completed) Pin() Completed { return c }

func (c Completed) SetSlot(key string) Completed { return c }

func (c Completed) ToPipe() Completed { return c }

func (c Completed) ToRetryable() Completed { return c }

func (c Completed) UnblockOnCancel() Completed { return c }

func (c Del) Key(key ...string) DelKey { return DelKey(c) }

func (c DelKey) Build() Completed { return Completed{} }

func (c DelKey) Key(key ...string) DelKey { return c }

func (c Delex) Key(key string) DelexKey { return DelexKey(c) }

func (c DelexConditionIfdeq) Build() Completed { return Completed{} }

func (c DelexConditionIfdne) Build() Completed { return Completed{} }

func (c DelexConditionIfeq) Build() Completed { return Completed{} }

func (c DelexConditionIfne) Build() Completed { return Completed{} }

func (c DelexKey) Build() Completed { return Completed{} }

func (c DelexKey) Ifdeq(ifdeq string) DelexConditionIfdeq { return DelexConditionIfdeq(c) }

func (c DelexKey) Ifdne(ifdne string) DelexConditionIfdne { return DelexConditionIfdne(c) }

func (c DelexKey) Ifeq(ifeq string) DelexConditionIfeq { return DelexConditionIfeq(c) }

func (c DelexKey) Ifne(ifne string) DelexConditionIfne { return DelexConditionIfne(c) }

func (c Delifeq) Key(key string) DelifeqKey { return DelifeqKey(c) }

func (c DelifeqKey) Value(value string) DelifeqValue { return DelifeqValue(c) }

func (c DelifeqValue) Build() Completed { return Completed{} }

func (c Digest) Key(key string) DigestKey { return DigestKey(c) }

func (c DigestKey) Build() Completed { return Completed{} }

func (c Discard) Build() Completed { return Completed{} }

func (c Eval) Script(script string) EvalScript { return EvalScript(c) }

func (c EvalArg) Arg(arg ...string) EvalArg { return c }

func (c EvalArg) Build() Completed { return Completed{} }

func (c EvalKey) Arg(arg ...string) EvalArg { return EvalArg(c) }

func (c EvalKey) Build() Completed { return Completed{} }

func (c EvalKey) Key(key ...string) EvalKey { return c }

func (c EvalNumkeys) Arg(arg ...string) EvalArg { return EvalArg(c) }

func (c EvalNumkeys) Build() Completed { return Completed{} }

func (c EvalNumkeys) Key(key ...string) EvalKey { return EvalKey(c) }

func (c EvalRo) Script(script string) EvalRoScript { return EvalRoScript(c) }

func (c EvalRoArg) Arg(arg ...string) EvalRoArg { return c }

func (c EvalRoArg) Build() Completed { return Completed{} }

func (c EvalRoArg) Cache() Cacheable { return Cacheable{} }

func (c EvalRoKey) Arg(arg ...string) EvalRoArg { return EvalRoArg(c) }

func (c EvalRoKey) Build() Completed { return Completed{} }

func (c EvalRoKey) Cache() Cacheable { return Cacheable{} }

func (c EvalRoKey) Key(key ...string) EvalRoKey { return c }

func (c EvalRoNumkeys) Arg(arg ...string) EvalRoArg { return EvalRoArg(c) }

func (c EvalRoNumkeys) Build() Completed { return Completed{} }

func (c EvalRoNumkeys) Cache() Cacheable { return Cacheable{} }

func (c EvalRoNumkeys) Key(key ...string) EvalRoKey { return EvalRoKey(c) }

func (c EvalRoScript) Numkeys(numkeys int64) EvalRoNumkeys { return EvalRoNumkeys(c) }

func (c EvalScript) Numkeys(numkeys int64) EvalNumkeys { return EvalNumkeys(c) }

func (c Evalsha) Sha1(sha1 string) EvalshaSha1 { return EvalshaSha1(c) }

func (c EvalshaArg) Arg(arg ...string) EvalshaArg { return c }

func (c EvalshaArg) Build() Completed { return Completed{} }

func (c EvalshaKey) Arg(arg ...string) EvalshaArg { return EvalshaArg(c) }

func (c EvalshaKey) Build() Completed { return Completed{} }

func (c EvalshaKey) Key(key ...string) EvalshaKey { return c }

func (c EvalshaNumkeys) Arg(arg ...string) EvalshaArg { return EvalshaArg(c) }

func (c EvalshaNumkeys) Build() Completed { return Completed{} }

func (c EvalshaNumkeys) Key(key ...string) EvalshaKey { return EvalshaKey(c) }

func (c EvalshaRo) Sha1(sha1 string) EvalshaRoSha1 { return EvalshaRoSha1(c) }

func (c EvalshaRoArg) Arg(arg ...string) EvalshaRoArg { return c }

func (c EvalshaRoArg) Build() Completed { return Completed{} }

func (c EvalshaRoArg) Cache() Cacheable { return Cacheable{} }

func (c EvalshaRoKey) Arg(arg ...string) EvalshaRoArg { return EvalshaRoArg(c) }

func (c EvalshaRoKey) Build() Completed { return Completed{} }

func (c EvalshaRoKey) Cache() Cacheable { return Cacheable{} }

func (c EvalshaRoKey) Key(key ...string) EvalshaRoKey { return c }

func (c EvalshaRoNumkeys) Arg(arg ...string) EvalshaRoArg { return EvalshaRoArg(c) }

func (c EvalshaRoNumkeys) Build() Completed { return Completed{} }

func (c EvalshaRoNumkeys) Cache() Cacheable { return Cacheable{} }

func (c EvalshaRoNumkeys) Key(key ...string) EvalshaRoKey { return EvalshaRoKey(c) }

func (c EvalshaRoSha1) Numkeys(numkeys int64) EvalshaRoNumkeys { return EvalshaRoNumkeys(c) }

func (c EvalshaSha1) Numkeys(numkeys int64) EvalshaNumkeys { return EvalshaNumkeys(c) }

func (c Exec) Build() Completed { return Completed{} }

func (c Expire) Key(key string) ExpireKey { return ExpireKey(c) }

func (c ExpireConditionGt) Build() Completed { return Completed{} }

func (c ExpireConditionLt) Build() Completed { return Completed{} }

func (c ExpireConditionNx) Build() Completed { return Completed{} }

func (c ExpireConditionXx) Build() Completed { return Completed{} }

func (c ExpireKey) Seconds(seconds int64) ExpireSeconds { return ExpireSeconds(c) }

func (c ExpireSeconds) Build() Completed { return Completed{} }

func (c ExpireSeconds) Gt() ExpireConditionGt { return ExpireConditionGt(c) }

func (c ExpireSeconds) Lt() ExpireConditionLt { return ExpireConditionLt(c) }

func (c ExpireSeconds) Nx() ExpireConditionNx { return ExpireConditionNx(c) }

func (c ExpireSeconds) Xx() ExpireConditionXx { return ExpireConditionXx(c) }

func (c Get) Key(key string) GetKey { return GetKey(c) }

func (c GetKey) Build() Completed { return Completed{} }

func (c GetKey) Cache() Cacheable { return Cacheable{} }

func (c Getdel) Key(key string) GetdelKey { return GetdelKey(c) }

func (c GetdelKey) Build() Completed { return Completed{} }

func (c Incr) Key(key string) IncrKey { return IncrKey(c) }

func (c IncrKey) Build() Completed { return Completed{} }

func (c Incrby) Key(key string) IncrbyKey { return IncrbyKey(c) }

func (c IncrbyIncrement) Build() Completed { return Completed{} }

func (c IncrbyKey) Increment(increment int64) IncrbyIncrement { return IncrbyIncrement(c) }

func (c Multi) Build() Completed { return Completed{} }

func (c Pexpire) Key(key string) PexpireKey { return PexpireKey(c) }

func (c PexpireConditionGt) Build() Completed { return Completed{} }

func (c PexpireConditionLt) Build() Completed { return Completed{} }

func (c PexpireConditionNx) Build() Completed { return Completed{} }

func (c PexpireConditionXx) Build() Completed { return Completed{} }

func (c PexpireKey) Milliseconds(milliseconds int64) PexpireMilliseconds {
	return PexpireMilliseconds(c)
}

func (c PexpireMilliseconds) Build() Completed { return Completed{} }

func (c PexpireMilliseconds) Gt() PexpireConditionGt { return PexpireConditionGt(c) }

func (c PexpireMilliseconds) Lt() PexpireConditionLt { return PexpireConditionLt(c) }

func (c PexpireMilliseconds) Nx() PexpireConditionNx { return PexpireConditionNx(c) }

func (c PexpireMilliseconds) Xx() PexpireConditionXx { return PexpireConditionXx(c) }

func (c Pexpireat) Key(key string) PexpireatKey { return PexpireatKey(c) }

func (c PexpireatConditionGt) Build() Completed { return Completed{} }

func (c PexpireatConditionLt) Build() Completed { return Completed{} }

func (c PexpireatConditionNx) Build() Completed { return Completed{} }

func (c PexpireatConditionXx) Build() Completed { return Completed{} }

func (c PexpireatKey) MillisecondsTimestamp(millisecondsTimestamp int64) PexpireatMillisecondsTimestamp {
	return PexpireatMillisecondsTimestamp(c)
}

func (c PexpireatMillisecondsTimestamp) Build() Completed { return Completed{} }

func (c PexpireatMillisecondsTimestamp) Gt() PexpireatConditionGt { return PexpireatConditionGt(c) }

func (c PexpireatMillisecondsTimestamp) Lt() PexpireatConditionLt { return PexpireatConditionLt(c) }

func (c PexpireatMillisecondsTimestamp) Nx() PexpireatConditionNx { return PexpireatConditionNx(c) }

func (c PexpireatMillisecondsTimestamp) Xx() PexpireatConditionXx { return PexpireatConditionXx(c) }

func (c Pttl) Key(key string) PttlKey { return PttlKey(c) }

func (c PttlKey) Build() Completed { return Completed{} }

func (c PttlKey) Cache() Cacheable { return Cacheable{} }

func (c ScriptLoad) Script(script string) ScriptLoadScript { return ScriptLoadScript(c) }

func (c ScriptLoadScript) Build() Completed { return Completed{} }

func (c Set) Key(key string) SetKey { return SetKey(c) }

func (c SetConditionIfdeq) Build() Completed { return Completed{} }

func (c SetConditionIfdeq) Ex(duration time.Duration) SetExpirationExSecTyped {
	return SetExpirationExSecTyped(c)
}

func (c SetConditionIfdeq) ExSeconds(seconds int64) SetExpirationExSeconds {
	return SetExpirationExSeconds(c)
}

func (c SetConditionIfdeq) Exat(timestamp time.Time) SetExpirationExatTimestampTyped {
	return SetExpirationExatTimestampTyped(c)
}

func (c SetConditionIfdeq) ExatTimestamp(timestamp int64) SetExpirationExatTimestamp {
	return SetExpirationExatTimestamp(c)
}

func (c SetConditionIfdeq) Get() SetGet { return SetGet(c) }

func (c SetConditionIfdeq) Keepttl() SetExpirationKeepttl { return SetExpirationKeepttl(c) }

func (c SetConditionIfdeq) Px(duration time.Duration) SetExpirationPxMsTyped {
	return SetExpirationPxMsTyped(c)
}

func (c SetConditionIfdeq) PxMilliseconds(milliseconds int64) SetExpirationPxMilliseconds {
	return SetExpirationPxMilliseconds(c)
}

func (c SetConditionIfdeq) Pxat(timestamp time.Time) SetExpirationPxatMsTimestampTyped {
	return SetExpirationPxatMsTimestampTyped(c)
}

func (c SetConditionIfdeq) PxatMillisecondsTimestamp(millisecondsTimestamp int64) SetExpirationPxatMillisecondsTimestamp {
	return SetExpirationPxatMillisecondsTimestamp(c)
}

func (c SetConditionIfdne) Build() Completed { return Completed{} }

func (c SetConditionIfdne) Ex(duration time.Duration) SetExpirationExSecTyped {
	return SetExpirationExSecTyped(c)
}

func (c SetConditionIfdne) ExSeconds(seconds int64) SetExpirationExSeconds {
	return SetExpirationExSeconds(c)
}

func (c SetConditionIfdne) Exat(timestamp time.Time) SetExpirationExatTimestampTyped {
	return SetExpirationExatTimestampTyped(c)
}

func (c SetConditionIfdne) ExatTimestamp(timestamp int64) SetExpirationExatTimestamp {
	return SetExpirationExatTimestamp(c)
}

func (c SetConditionIfdne) Get() SetGet { return SetGet(c) }

func (c SetConditionIfdne) Keepttl() SetExpirationKeepttl { return SetExpirationKeepttl(c) }

func (c SetConditionIfdne) Px(duration time.Duration) SetExpirationPxMsTyped {
	return SetExpirationPxMsTyped(c)
}

func (c SetConditionIfdne) PxMilliseconds(milliseconds int64) SetExpirationPxMilliseconds {
	return SetExpirationPxMilliseconds(c)
}

func (c SetConditionIfdne) Pxat(timestamp time.Time) SetExpirationPxatMsTimestampTyped {
	return SetExpirationPxatMsTimestampTyped(c)
}

func (c SetConditionIfdne) PxatMillisecondsTimestamp(millisecondsTimestamp int64) SetExpirationPxatMillisecondsTimestamp {
	return SetExpirationPxatMillisecondsTimestamp(c)
}

func (c SetConditionIfeq) Build() Completed { return Completed{} }

func (c SetConditionIfeq) Ex(duration time.Duration) SetExpirationExSecTyped {
	return SetExpirationExSecTyped(c)
}

func (c SetConditionIfeq) ExSeconds(seconds int64) SetExpirationExSeconds {
	return SetExpirationExSeconds(c)
}

func (c SetConditionIfeq) Exat(timestamp time.Time) SetExpirationExatTimestampTyped {
	return SetExpirationExatTimestampTyped(c)
}

func (c SetConditionIfeq) ExatTimestamp(timestamp int64) SetExpirationExatTimestamp {
	return SetExpirationExatTimestamp(c)
}

func (c SetConditionIfeq) Get() SetGet { return SetGet(c) }

func (c SetConditionIfeq) Keepttl() SetExpirationKeepttl { return SetExpirationKeepttl(c) }

func (c SetConditionIfeq) Px(duration time.Duration) SetExpirationPxMsTyped {
	return SetExpirationPxMsTyped(c)
}

func (c SetConditionIfeq) PxMilliseconds(milliseconds int64) SetExpirationPxMilliseconds {
	return SetExpirationPxMilliseconds(c)
}

func (c SetConditionIfeq) Pxat(timestamp time.Time) SetExpirationPxatMsTimestampTyped {
	return SetExpirationPxatMsTimestampTyped(c)
}

func (c SetConditionIfeq) PxatMillisecondsTimestamp(millisecondsTimestamp int64) SetExpirationPxatMillisecondsTimestamp {
	return SetExpirationPxatMillisecondsTimestamp(c)
}

func (c SetConditionIfne) Build() Completed { return Completed{} }

func (c SetConditionIfne) Ex(duration time.Duration) SetExpirationExSecTyped {
	return SetExpirationExSecTyped(c)
}

func (c SetConditionIfne) ExSeconds(seconds int64) SetExpirationExSeconds {
	return SetExpirationExSeconds(c)
}

func (c SetConditionIfne) Exat(timestamp time.Time) SetExpirationExatTimestampTyped {
	return SetExpirationExatTimestampTyped(c)
}

func (c SetConditionIfne) ExatTimestamp(timestamp int64) SetExpirationExatTimestamp {
	return SetExpirationExatTimestamp(c)
}

func (c SetConditionIfne) Get() SetGet { return SetGet(c) }

func (c SetConditionIfne) Keepttl() SetExpirationKeepttl { return SetExpirationKeepttl(c) }

func (c SetConditionIfne) Px(duration time.Duration) SetExpirationPxMsTyped {
	return SetExpirationPxMsTyped(c)
}

func (c SetConditionIfne) PxMilliseconds(milliseconds int64) SetExpirationPxMilliseconds {
	return SetExpirationPxMilliseconds(c)
}

func (c SetConditionIfne) Pxat(timestamp time.Time) SetExpirationPxatMsTimestampTyped {
	return SetExpirationPxatMsTimestampTyped(c)
}

func (c SetConditionIfne) PxatMillisecondsTimestamp(millisecondsTimestamp int64) SetExpirationPxatMillisecondsTimestamp {
	return SetExpirationPxatMillisecondsTimestamp(c)
}

func (c SetConditionNx) Build() Completed { return Completed{} }

func (c SetConditionNx) Ex(duration time.Duration) SetExpirationExSecTyped {
	return SetExpirationExSecTyped(c)
}

func (c SetConditionNx) ExSeconds(seconds int64) SetExpirationExSeconds {
	return SetExpirationExSeconds(c)
}

func (c SetConditionNx) Exat(timestamp time.Time) SetExpirationExatTimestampTyped {
	return SetExpirationExatTimestampTyped(c)
}

func (c SetConditionNx) ExatTimestamp(timestamp int64) SetExpirationExatTimestamp {
	return SetExpirationExatTimestamp(c)
}

func (c SetConditionNx) Get() SetGet { return SetGet(c) }

func (c SetConditionNx) Keepttl() SetExpirationKeepttl { return SetExpirationKeepttl(c) }

func (c SetConditionNx) Px(duration time.Duration) SetExpirationPxMsTyped {
	return SetExpirationPxMsTyped(c)
}

func (c SetConditionNx) PxMilliseconds(milliseconds int64) SetExpirationPxMilliseconds {
	return SetExpirationPxMilliseconds(c)
}

func (c SetConditionNx) Pxat(timestamp time.Time) SetExpirationPxatMsTimestampTyped {
	return SetExpirationPxatMsTimestampTyped(c)
}

func (c SetConditionNx) PxatMillisecondsTimestamp(millisecondsTimestamp int64) SetExpirationPxatMillisecondsTimestamp {
	return SetExpirationPxatMillisecondsTimestamp(c)
}

func (c SetConditionXx) Build() Completed { return Completed{} }

func (c SetConditionXx) Ex(duration time.Duration) SetExpirationExSecTyped {
	return SetExpirationExSecTyped(c)
}

func (c SetConditionXx) ExSeconds(seconds int64) SetExpirationExSeconds {
	return SetExpirationExSeconds(c)
}

func (c SetConditionXx) Exat(timestamp time.Time) SetExpirationExatTimestampTyped {
	return SetExpirationExatTimestampTyped(c)
}

func (c SetConditionXx) ExatTimestamp(timestamp int64) SetExpirationExatTimestamp {
	return SetExpirationExatTimestamp(c)
}

func (c SetConditionXx) Get() SetGet { return SetGet(c) }

func (c SetConditionXx) Keepttl() SetExpirationKeepttl { return SetExpirationKeepttl(c) }

func (c SetConditionXx) Px(duration time.Duration) SetExpirationPxMsTyped {
	return SetExpirationPxMsTyped(c)
}

func (c SetConditionXx) PxMilliseconds(milliseconds int64) SetExpirationPxMilliseconds {
	return SetExpirationPxMilliseconds(c)
}

func (c SetConditionXx) Pxat(timestamp time.Time) SetExpirationPxatMsTimestampTyped {
	return SetExpirationPxatMsTimestampTyped(c)
}

func (c SetConditionXx) PxatMillisecondsTimestamp(millisecondsTimestamp int64) SetExpirationPxatMillisecondsTimestamp {
	return SetExpirationPxatMillisecondsTimestamp(c)
}

func (c SetExpirationExSecTyped) Build() Completed { return Completed{} }

func (c SetExpirationExSeconds) Build() Completed { return Completed{} }

func (c SetExpirationExatTimestamp) Build() Completed { return Completed{} }

func (c SetExpirationExatTimestampTyped) Build() Completed { return Completed{} }

func (c SetExpirationKeepttl) Build() Completed { return Completed{} }

func (c SetExpirationPxMilliseconds) Build() Completed { return Completed{} }

func (c SetExpirationPxMsTyped) Build() Completed { return Completed{} }

func (c SetExpirationPxatMillisecondsTimestamp) Build() Completed { return Completed{} }

func (c SetExpirationPxatMsTimestampTyped) Build() Completed { return Completed{} }

func (c SetGet) Build() Completed { return Completed{} }

func (c SetGet) Ex(duration time.Duration) SetExpirationExSecTyped { return SetExpirationExSecTyped(c) }

func (c SetGet) ExSeconds(seconds int64) SetExpirationExSeconds { return SetExpirationExSeconds(c) }

func (c SetGet) Exat(timestamp time.Time) SetExpirationExatTimestampTyped {
	return SetExpirationExatTimestampTyped(c)
}

func (c SetGet) ExatTimestamp(timestamp int64) SetExpirationExatTimestamp {
	return SetExpirationExatTimestamp(c)
}

func (c SetGet) Keepttl() SetExpirationKeepttl { return SetExpirationKeepttl(c) }

func (c SetGet) Px(duration time.Duration) SetExpirationPxMsTyped { return SetExpirationPxMsTyped(c) }

func (c SetGet) PxMilliseconds(milliseconds int64) SetExpirationPxMilliseconds {
	return SetExpirationPxMilliseconds(c)
}

func (c SetGet) Pxat(timestamp time.Time) SetExpirationPxatMsTimestampTyped {
	return SetExpirationPxatMsTimestampTyped(c)
}

func (c SetGet) PxatMillisecondsTimestamp(millisecondsTimestamp int64) SetExpirationPxatMillisecondsTimestamp {
	return SetExpirationPxatMillisecondsTimestamp(c)
}

func (c SetKey) Value(value string) SetValue { return SetValue(c) }

func (c SetValue) Build() Completed { return Completed{} }

func (c SetValue) Ex(duration time.Duration) SetExpirationExSecTyped {
	return SetExpirationExSecTyped(c)
}

func (c SetValue) ExSeconds(seconds int64) SetExpirationExSeconds { return SetExpirationExSeconds(c) }

func (c SetValue) Exat(timestamp time.Time) SetExpirationExatTimestampTyped {
	return SetExpirationExatTimestampTyped(c)
}

func (c SetValue) ExatTimestamp(timestamp int64) SetExpirationExatTimestamp {
	return SetExpirationExatTimestamp(c)
}

func (c SetValue) Get() SetGet { return SetGet(c) }

func (c SetValue) Ifdeq(ifdeq string) SetConditionIfdeq { return SetConditionIfdeq(c) }

func (c SetValue) Ifdne(ifdne string) SetConditionIfdne { return SetConditionIfdne(c) }

func (c SetValue) Ifeq(ifeq string) SetConditionIfeq { return SetConditionIfeq(c) }

func (c SetValue) Ifne(ifne string) SetConditionIfne { return SetConditionIfne(c) }

func (c SetValue) Keepttl() SetExpirationKeepttl { return SetExpirationKeepttl(c) }

func (c SetValue) Nx() SetConditionNx { return SetConditionNx(c) }

func (c SetValue) Px(duration time.Duration) SetExpirationPxMsTyped { return SetExpirationPxMsTyped(c) }

func (c SetValue) PxMilliseconds(milliseconds int64) SetExpirationPxMilliseconds {
	return SetExpirationPxMilliseconds(c)
}

func (c SetValue) Pxat(timestamp time.Time) SetExpirationPxatMsTimestampTyped {
	return SetExpirationPxatMsTimestampTyped(c)
}

func (c SetValue) PxatMillisecondsTimestamp(millisecondsTimestamp int64) SetExpirationPxatMillisecondsTimestamp {
	return SetExpirationPxatMillisecondsTimestamp(c)
}

func (c SetValue) Xx() SetConditionXx { return SetConditionXx(c) }

func (c Setnx) Key(key string) SetnxKey { return SetnxKey(c) }

func (c SetnxKey) Value(value string) SetnxValue { return SetnxValue(c) }

func (c SetnxValue) Build() Completed { return Completed{} }

func (c Unlink) Key(key ...string) UnlinkKey { return UnlinkKey(c) }

func (c UnlinkKey) Build() Completed { return Completed{} }

func (c UnlinkKey) Key(key ...string) UnlinkKey { return c }

func (c Wait) Numreplicas(numreplicas int64) WaitNumreplicas { return WaitNumreplicas(c) }

func (c WaitNumreplicas) Timeout(timeout int64) WaitTimeout { return WaitTimeout(c) }

func (c WaitTimeout) Build() Completed { return Completed{} }

func (c Waitaof) Numlocal(numlocal int64) WaitaofNumlocal { return WaitaofNumlocal(c) }

func (c WaitaofNumlocal) Numreplicas(numreplicas int64) WaitaofNumreplicas {
	return WaitaofNumreplicas(c)
}

func (c WaitaofNumreplicas) Timeout(timeout int64) WaitaofTimeout { return WaitaofTimeout(c) }

func (c WaitaofTimeout) Build() Completed { return Completed{} }

func (c Watch) Key(key ...string) WatchKey { return WatchKey(c) }

func (c WatchKey) Build() Completed { return Completed{} }

func (c WatchKey) Key(key ...string) WatchKey { return c }
