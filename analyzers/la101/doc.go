// Package la101 defines an Analyzer that reports Lua scripts performing a
// lock step (rule LA101, lua-lock-script): compare-and-delete,
// compare-and-extend, or a scripted acquire, as classified by
// analyzers/internal/lua.
//
// A script is reported once, where its text is: at the constructor of a
// script object (go-redis NewScript/NewScriptServerSHA, redigo NewScript,
// valkey-go/rueidis NewLuaScript*, radix NewEvalScript, glide
// options.NewScript, redsync's internal redis.NewScript), or at the EVAL /
// EVAL_RO call that sends it inline. Script runs (Run, Exec, Do ...) are not
// reported again. Scripts whose text is not a constant visible in the
// package (built at run time, or defined in another package) are not
// reported; non-lock scripts (rate limiters, counters, queue pops, cache
// compare-and-set) are not either.
package la101
