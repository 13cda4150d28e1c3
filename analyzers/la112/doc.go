// Package la112 defines an Analyzer that reports a native lock command the
// target server does not have (rule LA112, command-needs-newer-server):
// DELIFEQ (Valkey 9.0+; no Redis version), DELEX (Valkey 9.2+, Redis 8.4+)
// and SET IFEQ (Valkey 8.1+, Redis 8.4+), as the rules package's feature
// table says. It also reports DELEX without a condition, whatever the
// target: a plain DEL on Redis (it deletes whoever holds the lock) and an
// error on Valkey (the condition is required).
//
// The target is the -target flag (default valkey-9.0): a release line such
// as valkey-8.1, valkey-9.2 or redis-8.4 (rules.ParseTarget; an unknown
// target is an error when the flag is set), or a comma-separated list of
// them for a fleet that runs several (.lockaudit.yaml's target list): a
// command is reported when any target lacks it, and the message names
// which. Set it to the releases the nodes that can become primary run.
package la112
