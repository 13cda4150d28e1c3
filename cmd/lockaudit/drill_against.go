package main

import (
	"context"
)

// drillAgainst plays the race on a staging Sentinel fleet (see drill's Doc).
func drillAgainst(ctx context.Context, e *env, addr, master string, force bool, plan []outTarget) error {
	if !force {
		return usageError("-against forces a failover of the staging primary and writes scratch keys on it: give -force-failover-and-write-scratch-keys to allow it (never on production)")
	}
	if master == "" {
		return usageError("-against needs -master NAME: the one primary the Sentinel may monitor")
	}
	return failure("-against is not implemented yet")
}
