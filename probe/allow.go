package probe

import (
	"fmt"
	"strings"
)

// The commands the probe reads facts with.
var (
	// commandInfo asks whether the lock commands exist (a nil entry means
	// unknown command; EVAL is nil when renamed or disabled).
	commandInfo = []string{"COMMAND", "INFO", "DELIFEQ", "DELEX", "EVAL"}

	// configParams are the only CONFIG parameters the probe reads. Never
	// `*` and never a pattern: CONFIG GET returns masterauth and
	// requirepass in clear text.
	configParams = []string{
		"min-replicas-to-write", "min-replicas-max-lag", "appendonly", "appendfsync",
		"replica-priority", "replica-announced", "cluster-replica-no-failover",
		"maxmemory", "maxmemory-policy",
	}
)

// readOnly is the probe's allowlist: every command it may send, with the
// subcommands allowed (nil: the command has none to check). HELLO and AUTH
// are sent by valkey-go's handshake, and PING by its keep-alive; nothing
// else leaves the probe. Each entry is read-only on every server version.
var readOnly = map[string]map[string]bool{
	"PING":     nil,
	"INFO":     nil,
	"ROLE":     nil,
	"TIME":     nil,
	"COMMAND":  {"INFO": true, "DOCS": true, "COUNT": true},
	"CONFIG":   {"GET": true},
	"CLIENT":   {"SETNAME": true},
	"CLUSTER":  {"SHARDS": true, "NODES": true, "SLOTS": true, "INFO": true, "MYID": true},
	"SENTINEL": {"MASTERS": true, "MASTER": true, "REPLICAS": true, "SLAVES": true, "SENTINELS": true, "GET-MASTER-ADDR-BY-NAME": true},
}

var allowedConfig = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range configParams {
		m[p] = true
	}
	return m
}()

// checkReadOnly refuses any command that is not on the allowlist, and any
// CONFIG GET of a parameter the probe does not need.
func checkReadOnly(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("probe: empty command")
	}
	name := strings.ToUpper(args[0])
	subs, ok := readOnly[name]
	if !ok {
		return fmt.Errorf("probe: refusing to send %s: not a read-only command on the probe's allowlist", name)
	}
	if subs == nil {
		return nil
	}
	if len(args) < 2 || !subs[strings.ToUpper(args[1])] {
		sub := ""
		if len(args) > 1 {
			sub = " " + strings.ToUpper(args[1])
		}
		return fmt.Errorf("probe: refusing to send %s%s: not a read-only subcommand on the probe's allowlist", name, sub)
	}
	if name == "CONFIG" {
		if len(args) < 3 {
			return fmt.Errorf("probe: refusing to send CONFIG GET without a parameter")
		}
		for _, p := range args[2:] {
			if !allowedConfig[strings.ToLower(p)] {
				return fmt.Errorf("probe: refusing to send CONFIG GET %s: only the parameters the probe needs may be read (never a pattern or a secret)", p)
			}
		}
	}
	return nil
}
