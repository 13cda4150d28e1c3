package probe

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/rules"
)

// recorded lists the server folders under testdata/replies.
func recorded(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("testdata", "replies", "*"))
	if err != nil || len(dirs) < 5 {
		t.Fatalf("want recorded replies of 5 servers in testdata/replies, found %v (%v)", dirs, err)
	}
	return dirs
}

func serverOf(t *testing.T, dir string) rules.Version {
	t.Helper()
	fl, num, _ := strings.Cut(filepath.Base(dir), "-")
	v, err := rules.ParseVersion(rules.Flavor(fl), num)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func load(t *testing.T, dir, proto, name string) resp.Value {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, proto, name+".resp"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := resp.Parse(data)
	if err != nil {
		t.Fatalf("%s/%s/%s: %v", dir, proto, name, err)
	}
	return v
}

func loadInfo(t *testing.T, dir, proto, name string) string {
	t.Helper()
	s, err := infoText(load(t, dir, proto, name))
	if err != nil {
		t.Fatalf("%s/%s/%s: %v", dir, proto, name, err)
	}
	return s
}

// forEachRecording runs f for every server and both protocols.
func forEachRecording(t *testing.T, f func(t *testing.T, dir, proto string, v rules.Version)) {
	for _, dir := range recorded(t) {
		v := serverOf(t, dir)
		for _, proto := range []string{"resp2", "resp3"} {
			t.Run(filepath.Base(dir)+"/"+proto, func(t *testing.T) { f(t, dir, proto, v) })
		}
	}
}

func TestParseInfoServerRecorded(t *testing.T) {
	forEachRecording(t, func(t *testing.T, dir, proto string, want rules.Version) {
		for name, mode := range map[string]string{"info-server": "standalone", "cluster-info-server": "cluster", "sentinel-info-server": "sentinel"} {
			si, err := parseInfoServer(loadInfo(t, dir, proto, name))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if si.version != want || si.mode != mode || len(si.runID) != 40 {
				t.Errorf("%s: version %v mode %q run_id %q; want %v, %q", name, si.version, si.mode, si.runID, want, mode)
			}
		}
	})
}

func TestParseInfoScriptingRecorded(t *testing.T) {
	forEachRecording(t, func(t *testing.T, dir, proto string, v rules.Version) {
		sc, err := parseInfoScripting(loadInfo(t, dir, proto, "info-scriptingengines"))
		if err != nil {
			t.Fatal(err)
		}
		sectionWanted := rules.Supports(v, rules.LuaOptional)
		if sc.present != sectionWanted {
			t.Errorf("section present = %v, want %v", sc.present, sectionWanted)
		}
		if sectionWanted && (sc.engines != 1 || !sc.hasEngine("lua")) {
			t.Errorf("with Lua loaded: %+v", sc)
		}
		if !sectionWanted {
			return
		}
		sc, err = parseInfoScripting(loadInfo(t, dir, proto, "info-scriptingengines-nolua"))
		if err != nil || !sc.present || sc.engines != 0 || sc.hasEngine("lua") {
			t.Errorf("after MODULE UNLOAD lua: %+v, %v", sc, err)
		}
	})
}

func TestParseReplicationRecorded(t *testing.T) {
	forEachRecording(t, func(t *testing.T, dir, proto string, v rules.Version) {
		prim, err := parseInfoReplication(loadInfo(t, dir, proto, "info-replication-primary"))
		if err != nil || prim.role != RolePrimary || prim.connected != 2 || len(prim.replicas) != 2 {
			t.Errorf("primary: %+v, %v", prim, err)
		}
		rep, err := parseInfoReplication(loadInfo(t, dir, proto, "info-replication-replica"))
		if err != nil || rep.role != RoleReplica || rep.priority != 100 || rep.announced != "1" || rep.linkStatus != "up" {
			t.Errorf("replica: %+v, %v", rep, err)
		}
		hid, err := parseInfoReplication(loadInfo(t, dir, proto, "info-replication-hidden"))
		if err != nil || hid.role != RoleReplica || hid.priority != 0 || hid.announced != "0" || hid.primary != rep.primary {
			t.Errorf("hidden replica: %+v, %v", hid, err)
		}
		alone, err := parseInfoReplication(loadInfo(t, dir, proto, "info-replication-standalone"))
		if err != nil || alone.role != RolePrimary || len(alone.replicas) != 0 {
			t.Errorf("standalone: %+v, %v", alone, err)
		}

		// ROLE agrees with INFO replication.
		rp, err := parseRole(load(t, dir, proto, "role-primary"))
		if err != nil || rp.role != RolePrimary || !sameSet(rp.replicas, prim.replicas) {
			t.Errorf("ROLE primary: %+v, %v (INFO lists %v)", rp, err, prim.replicas)
		}
		rr, err := parseRole(load(t, dir, proto, "role-replica"))
		if err != nil || rr.role != RoleReplica || rr.primary != rep.primary {
			t.Errorf("ROLE replica: %+v, %v (INFO says primary %s)", rr, err, rep.primary)
		}
		rs, err := parseRole(load(t, dir, proto, "sentinel-role"))
		if err != nil || rs.role != RoleSentinel || !slices.Equal(rs.masters, []string{"mymaster"}) {
			t.Errorf("ROLE sentinel: %+v, %v", rs, err)
		}
		cr, err := parseInfoReplication(loadInfo(t, dir, proto, "cluster-info-replication-replica"))
		if err != nil || cr.role != RoleReplica {
			t.Errorf("cluster replica: %+v, %v", cr, err)
		}
	})
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func TestParseCommandsRecorded(t *testing.T) {
	names := commandInfo[2:]
	parsed := map[string]any{}
	forEachRecording(t, func(t *testing.T, dir, proto string, v rules.Version) {
		got, err := parseCommandInfo(load(t, dir, proto, "command-info"), names)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{"delifeq": rules.Supports(v, rules.DELIFEQ), "delex": rules.Supports(v, rules.DELEX), "eval": true}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("COMMAND INFO = %v, want %v", got, want)
		}
		got, err = parseCommandInfo(load(t, dir, proto, "command-info-eval-renamed"), names)
		if err != nil || got["eval"] {
			t.Errorf("EVAL renamed: %v, %v", got, err)
		}

		tokens, found, err := parseSetConditions(load(t, dir, proto, "command-docs-set"))
		if err != nil || !found {
			t.Fatalf("COMMAND DOCS SET: %v, found %v", err, found)
		}
		if !slices.Contains(tokens, "NX") || !slices.Contains(tokens, "XX") {
			t.Errorf("condition tokens %v lack NX/XX", tokens)
		}
		if has := slices.Contains(tokens, "IFEQ"); has != rules.Supports(v, rules.SetIFEQ) {
			t.Errorf("condition tokens %v: IFEQ listed = %v, want %v", tokens, has, !has)
		}
		_, _, err = parseSetConditions(load(t, dir, proto, "command-docs-noperm"))
		if err == nil || !strings.HasPrefix(err.Error(), "NOPERM") {
			t.Errorf("COMMAND DOCS as a user without the permission: %v, want NOPERM", err)
		}
		// Both protocols parse to the same facts.
		key := filepath.Base(dir)
		if prev, ok := parsed[key]; ok && !reflect.DeepEqual(prev, tokens) {
			t.Errorf("RESP2 and RESP3 disagree: %v vs %v", prev, tokens)
		}
		parsed[key] = tokens
	})
}

func TestParseConfigRecorded(t *testing.T) {
	forEachRecording(t, func(t *testing.T, dir, proto string, v rules.Version) {
		cfg, err := parseConfig(load(t, dir, proto, "config-get"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range configParams {
			if _, ok := cfg[p]; !ok {
				t.Errorf("CONFIG GET lacks %s: %v", p, cfg)
			}
		}
		if cfg["appendonly"] != "no" || cfg["replica-priority"] != "100" || cfg["cluster-replica-no-failover"] != "no" || cfg["maxmemory-policy"] != "noeviction" {
			t.Errorf("CONFIG GET defaults: %v", cfg)
		}
		nf, err := parseConfig(load(t, dir, proto, "cluster-config-get-nofailover"))
		if err != nil || nf["cluster-replica-no-failover"] != "yes" {
			t.Errorf("nofailover replica: %v, %v", nf, err)
		}
		_, err = parseConfig(load(t, dir, proto, "config-renamed"))
		if err == nil || !strings.Contains(err.Error(), "unknown command") {
			t.Errorf("CONFIG renamed: %v", err)
		}
		tm, err := parseTime(load(t, dir, proto, "time"))
		if err != nil || tm.Year() < 2024 || tm.After(time.Now().Add(time.Hour)) {
			t.Errorf("TIME = %v, %v", tm, err)
		}
	})
}

func TestParseClusterRecorded(t *testing.T) {
	forEachRecording(t, func(t *testing.T, dir, proto string, v rules.Version) {
		text, err := infoText(load(t, dir, proto, "cluster-nodes"))
		if err != nil {
			t.Fatal(err)
		}
		nodes, err := parseClusterNodes(text)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]clusterNode{}
		var prim, rep, nofail int
		for _, n := range nodes {
			ids[n.id] = n
			switch n.role() {
			case RolePrimary:
				prim++
			case RoleReplica:
				rep++
			}
			if n.flags["nofailover"] {
				nofail++
			}
			if n.addr == "" || !n.linkUp {
				t.Errorf("node %+v has no address or no link", n)
			}
		}
		if prim != 2 || rep != 2 || nofail != 1 {
			t.Errorf("CLUSTER NODES: %d primaries, %d replicas, %d nofailover; want 2, 2, 1", prim, rep, nofail)
		}
		for _, n := range nodes {
			if n.role() == RoleReplica && ids[n.primary].role() != RolePrimary {
				t.Errorf("replica %s's primary %s is not a known primary", n.addr, n.primary)
			}
		}
		shards, err := parseClusterShards(load(t, dir, proto, "cluster-shards"), false)
		if err != nil {
			t.Fatal(err)
		}
		if len(shards) != 2 {
			t.Fatalf("CLUSTER SHARDS: %d shards, want 2", len(shards))
		}
		for _, sh := range shards {
			if sh.id == "" || len(sh.nodes) != 2 {
				t.Errorf("shard %+v", sh)
			}
			for _, sn := range sh.nodes {
				// A replica whose offset is still 0 reports health "loading".
				if cn, ok := ids[sn.id]; !ok || cn.addr != sn.addr || (sn.health != "online" && sn.health != "loading") {
					t.Errorf("shard node %+v does not match CLUSTER NODES %+v", sn, cn)
				}
			}
		}
		_, err = parseClusterShards(load(t, dir, proto, "cluster-disabled"), false)
		if err == nil || !strings.Contains(err.Error(), "cluster support disabled") {
			t.Errorf("CLUSTER SHARDS on a standalone node: %v", err)
		}
	})
}

func TestParseSentinelRecorded(t *testing.T) {
	forEachRecording(t, func(t *testing.T, dir, proto string, v rules.Version) {
		masters, err := parseEntries(load(t, dir, proto, "sentinel-masters"))
		if err != nil || len(masters) != 1 || masters[0]["name"] != "mymaster" {
			t.Fatalf("SENTINEL MASTERS: %v, %v", masters, err)
		}
		maddr, ok := entryAddr(masters[0])
		rep, _ := parseInfoReplication(loadInfo(t, dir, proto, "info-replication-replica"))
		if !ok || maddr != rep.primary {
			t.Errorf("SENTINEL MASTERS address %q, want the recorded primary %q", maddr, rep.primary)
		}
		reps, err := parseEntries(load(t, dir, proto, "sentinel-replicas"))
		if err != nil || len(reps) != 1 {
			t.Fatalf("SENTINEL REPLICAS (the hidden replica must not be listed): %v, %v", reps, err)
		}
		if reps[0]["slave-priority"] != "100" || !strings.Contains(reps[0]["flags"], "slave") {
			t.Errorf("SENTINEL REPLICAS entry: %v", reps[0])
		}
		if _, ok := entryAddr(reps[0]); !ok {
			t.Errorf("SENTINEL REPLICAS entry has no address: %v", reps[0])
		}
		sens, err := parseEntries(load(t, dir, proto, "sentinel-sentinels"))
		if err != nil || len(sens) != 1 {
			t.Errorf("SENTINEL SENTINELS: %v, %v", sens, err)
		}
	})
}

// Hand-made shapes the recordings do not cover.
func TestParseEdgeCases(t *testing.T) {
	if _, err := parseInfoServer("# Server\nserver_name:keydb\nredis_version:6.3.4\n"); err == nil {
		t.Error("an unknown server_name was accepted as Redis")
	}
	if _, err := parseInfoServer("garbage"); err == nil {
		t.Error("INFO without a version was accepted")
	}
	if ri, err := parseInfoReplication("role:slave\nmaster_host:::1\nmaster_port:7000\n"); err != nil || ri.primary != "[::1]:7000" {
		t.Errorf("IPv6 primary: %+v, %v", ri, err)
	}
	if _, err := parseInfoReplication("role:slave\nmaster_host:h\nmaster_port:99999\n"); err == nil {
		t.Error("a port out of range was accepted")
	}
	nodes, err := parseClusterNodes("a ::1:7000@17000 myself,master - 0 0 1 connected 0-16383\nb :0@0 slave,noaddr,nofailover a 0 0 1 disconnected\n")
	if err != nil || len(nodes) != 2 || nodes[0].addr != "[::1]:7000" || nodes[1].addr != "" || !nodes[1].flags["nofailover"] {
		t.Errorf("CLUSTER NODES edge cases: %+v, %v", nodes, err)
	}
	if _, err := parseClusterNodes("too few fields\n"); err == nil {
		t.Error("a short CLUSTER NODES line was accepted")
	}
	// COMMAND DOCS of an unknown command is an empty reply: not found.
	if _, found, err := parseSetConditions(resp.Value{Kind: resp.Array}); found || err != nil {
		t.Errorf("empty COMMAND DOCS: found %v, %v", found, err)
	}
	if _, err := parseCommandInfo(resp.Value{Kind: resp.Array, Elems: []resp.Value{{Kind: resp.Nil}}}, []string{"a", "b"}); err == nil {
		t.Error("COMMAND INFO with too few entries was accepted")
	}
	if _, err := parseTime(resp.Value{Kind: resp.Array, Elems: []resp.Value{{Kind: resp.Str, Str: "1"}, {Kind: resp.Str, Str: "1000000"}}}); err == nil {
		t.Error("TIME with 1e6 microseconds was accepted")
	}
}

// TestInfoBySection: one INFO reply of several sections is split so that
// each parser reads its own section; a section the server lacks is absent.
func TestInfoBySection(t *testing.T) {
	text := "# Server\r\nvalkey_version:9.1.2\r\nserver_mode:cluster\r\n\r\n# Replication\r\nrole:master\r\nconnected_slaves:0\r\n\r\n# Scripting Engines\r\nengines_count:1\r\nengine_0:name=LUA,module=lua\r\n"
	got := infoBySection(text)
	if len(got) != 3 || !strings.HasPrefix(got["server"], "# Server\r\n") || !strings.Contains(got["server"], "server_mode:cluster") ||
		strings.Contains(got["server"], "role:") || !strings.Contains(got["replication"], "role:master") || !strings.Contains(got["scriptingengines"], "engine_0:name=LUA") {
		t.Fatalf("sections %q", got)
	}
	if got := infoBySection("# Server\r\nvalkey_version:8.1.1\r\n"); got["scriptingengines"] != "" || got["server"] == "" {
		t.Errorf("a server without the section: %q", got)
	}
	if got := infoBySection(""); len(got) != 0 {
		t.Errorf("empty text: %q", got)
	}
}
