# casbin/redis-adapter: Casbin's policy storage on redigo. Policies live in
# one list; four Lua scripts find rules by pattern or text and rewrite or
# delete them in place (a compare-and-set of list elements), and dropTable
# DELs the list with its reply discarded. Data, not locks: a look-alike for
# compare-and-delete shapes in Lua and a dropped DEL.
# Held out: expectations written by reading the code before any run.
module github.com/casbin/redis-adapter/v3 v3.5.0
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages .

not LA101 adapter.go:602,619 data-cad RemoveFilteredPolicy's script marks list elements matching a pattern and LREMs them: a compare-and-delete of policy rules (data nothing acquires)
not LA101 adapter.go:638,656 data-cad UpdatePolicy's script LSETs the element equal to the old rule to the new one: a compare-and-set of data
not LA101 adapter.go:684,708 data-cad UpdatePolicies' script maps old rules to new ones in place: data
not LA101 adapter.go:728,756 data-cad UpdateFilteredPolicies' script deletes matching rules and RPUSHes new ones: data
not LA103 adapter.go:250 state-flag dropTable DELs the policy list (its reply discarded): data, no SET NX on that key anywhere
not LA108 adapter.go:250 state-flag the dropped DEL reply is no lock release
