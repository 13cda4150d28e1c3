# alextanhongpin/core/dsync/ratelimit: look-alike. GCRA and fixed-window rate
# limiters as a Redis Functions library (an embedded code.lua loaded with
# FUNCTION LOAD REPLACE, run with FCALL): SET PX of a timestamp, INCRBY then
# PEXPIRE of a counter. Non-lock Lua.
# Held out: expectations written by reading the code before any run.
module github.com/alextanhongpin/core/dsync/ratelimit v0.0.2
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
packages .

not LA101 code.go:15 non-lock-lua FUNCTION LOAD REPLACE of the embedded rate-limit library (gcra: GET, SET PX of the next allowed time; fixed_window: INCRBY, PEXPIRE on the first hit): no lock key, no compare-and-delete or compare-and-extend
not LA101 gcra.go:68 non-lock-lua FCALL gcra on the caller's rate-limit key
not LA101 fixed_window.go:49 non-lock-lua FCALL fixed_window on the caller's rate-limit key
