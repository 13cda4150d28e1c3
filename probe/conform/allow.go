package conform

import (
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/probe"
)

// Writes is every command conform may send to a primary: the lock steps,
// the reads that check them, DEL for the cleanup, and CLUSTER NODES to
// find a slot the primary owns. Every key argument must lie under the
// scratch prefix (scratchOnly), so no other key can be touched; EVAL runs
// conform's own release script (luaRelease) and no other.
var Writes = probe.Commands{
	"SET": nil, "GET": nil, "PTTL": nil, "INCR": nil, "PEXPIRE": nil,
	"DELIFEQ": nil, "DELEX": nil, "DEL": nil, "EVAL": nil,
	"MULTI": nil, "EXEC": nil, "DISCARD": nil, "WAIT": nil,
	"CLUSTER": {"NODES": true},
}

// Reads is every command conform may send to a replica: GET and PTTL of a
// scratch key, and READONLY (a cluster replica answers reads only then).
var Reads = probe.Commands{"GET": nil, "PTTL": nil, "READONLY": nil}

// scratchOnly checks a command against table, then refuses any key
// argument that does not start with prefix.
func scratchOnly(prefix string, table probe.Commands) probe.Allowlist {
	return func(args []string) error {
		if err := table.Check("conform", args); err != nil {
			return err
		}
		keys, err := keyArgs(args)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if !strings.HasPrefix(k, prefix) {
				return fmt.Errorf("conform: refusing to send %s to key %q: outside the scratch prefix %q", strings.ToUpper(args[0]), k, prefix)
			}
		}
		return nil
	}
}

// keyArgs returns a command's key arguments.
func keyArgs(args []string) ([]string, error) {
	switch strings.ToUpper(args[0]) {
	case "SET", "GET", "PTTL", "INCR", "PEXPIRE", "DELIFEQ", "DELEX":
		if len(args) < 2 {
			return nil, fmt.Errorf("conform: %s without a key", strings.ToUpper(args[0]))
		}
		return args[1:2], nil
	case "DEL":
		if len(args) < 2 {
			return nil, fmt.Errorf("conform: DEL without a key")
		}
		return args[1:], nil
	case "EVAL":
		if len(args) != 5 || args[1] != luaRelease || args[2] != "1" {
			return nil, fmt.Errorf("conform: refusing to send EVAL: only its own release script, on one key")
		}
		return args[3:4], nil
	}
	return nil, nil
}
