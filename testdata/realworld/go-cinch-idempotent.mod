# go-cinch/common/idempotent: the go-cinch framework's idempotency check.
# Check runs one inline script on "<prefix>_<token>": if the key exists it
# answers '0', else it SETs the key to "1", EXPIREs it (60 by default) and
# answers '1'. The request token is claimed once and left to expire; nothing
# deletes or extends it. A look-alike: a scripted set-if-absent with a
# constant value that is no lock.
# Held out: expectations written by reading the code before any run.
module github.com/go-cinch/common/idempotent v1.1.0
# Held-out v3, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v3
packages .

not LA101 idempotent.go:40,12 state-flag the script (GET, then SET and EXPIRE when absent) claims a request token once and leaves the mark to expire; nothing releases or renews it: an idempotency marker, not a lock (like dtm-client's barriers)
not LA107 idempotent.go:40 state-flag the written value is the constant "1", but the claim is a mark left to expire, never compared or released: no token to be unique
not LA106 idempotent.go:40,12 state-flag SET then EXPIRE run in one script, so atomically, and of a marker, not a lock
