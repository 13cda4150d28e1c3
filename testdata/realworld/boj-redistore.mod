# boj/redistore: a gorilla/sessions store on redigo. Look-alike: SETEX of
# a serialised session under a key named by the session id, DEL on
# delete and on MaxAge < 0.
# Held out: expectations written by reading the code before any run.
module github.com/boj/redistore v1.4.1
# Held-out v4, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v4
packages .

not LA103 redistore.go:410,499 direct DEL of a session key (s.keyPrefix + session.ID): session data, no lock
not LA106 redistore.go:461 direct SETEX of session data: no NX, not an acquire
