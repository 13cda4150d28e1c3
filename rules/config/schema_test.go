package config

import (
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config/schemacheck"
)

// TestSchemaAgreesWithLoader: docs/lockaudit.schema.json, the schema
// editors use, accepts the files the loader accepts and refuses those it
// refuses. (The loader is more lenient in a few spellings the schema does
// not list: rule IDs, names and settings in other letter cases. It also
// compiles the regular expressions, which a schema cannot.)
func TestSchemaAgreesWithLoader(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		valid     bool
	}{
		{"empty", "", true},
		{"version only", "version: 1\n", true},
		{"everything", `version: 1
target: [valkey-8.1, valkey-9.0.2, redis-8.4]
rules:
  LA110: warning
  plain-del-release: off
  LA108: true
  fence-check-not-strict: info
lock_keys: ['(^|[^a-z0-9])lock([^a-z0-9]|$)', '^mutex:']
fence_keys: '^fence:'
fence_columns: [fence, token]
writers:
  - '(*database/sql.DB).ExecContext'
  - '(github.com/jackc/pgx/v5.Tx).Exec'
  - 'example.com/orders/repo.SaveInvoice'
probe:
  addrs: [10.0.0.1:6379, valkey.internal]
  sentinel: 10.0.0.9:26379
  master: mymaster
  user: probe
  password_file: /run/secrets/valkey-probe
  tls: {enabled: yes, ca: ca.pem, cert: c.pem, key: k.pem, server_name: valkey.internal}
  timeout: 2s
  deadline: 1m30s
  parallel: 4
  uses: [delifeq, lua]
  skew: 500us
scan:
  max_lease: 10m
  rate: 0
  count: 500
conform:
  prefix: 'staging:lockaudit:'
  ttl: 30s
report:
  title: 'Lock audit: checkout'
  client: ACME Corp
  system: checkout
  environment: production
  author: Jane Doe
  notes: notes/audit.md
`, true},
		{"unknown report key", "report:\n  customer: ACME\n", false},
		{"report title not a string", "report:\n  title: [a, b]\n", false},
		{"target as one string", "target: valkey-9.0\n", true},
		{"keys without values", "version:\ntarget:\nrules:\nwriters:\nprobe:\n  tls:\n  timeout:\n", true},
		{"unknown key", "targets: [valkey-9.0]\n", false},
		{"unknown nested key", "probe:\n  adress: [x]\n", false},
		{"password", "probe:\n  password: hunter2\n", false},
		{"unknown tls key", "probe:\n  tls: {verify: false}\n", false},
		{"version 2", "version: 2\n", false},
		{"unknown target", "target: valkey-10.4\n", false},
		{"unknown release line", "target: [valkey-9.0, valkey-8.3]\n", false},
		{"unknown rule", "rules:\n  LA999: off\n", false},
		{"unknown rule name", "rules:\n  plain-del: off\n", false},
		{"bad rule setting", "rules:\n  LA103: loud\n", false},
		{"rules not a mapping", "rules: [LA103]\n", false},
		{"lock_keys not strings", "lock_keys: {a: b}\n", false},
		{"bad writer", "writers: ['(*sql.DB.Exec']\n", false},
		{"bad duration", "probe:\n  timeout: soon\n", false},
		{"zero duration", "probe:\n  skew: 0s\n", false},
		{"bare number duration", "probe:\n  timeout: 3\n", false},
		{"zero parallel", "probe:\n  parallel: 0\n", false},
		{"parallel not a number", "probe:\n  parallel: many\n", false},
		{"bad use", "probe:\n  uses: [delifeq, lua5]\n", false},
		{"bad bool", "probe:\n  tls: {enabled: maybe}\n", false},
		{"top not a mapping", "- a\n", false},
		{"negative scan rate", "scan:\n  rate: -1\n", false},
		{"zero scan count", "scan:\n  count: 0\n", false},
		{"zero max_lease", "scan:\n  max_lease: 0s\n", false},
		{"unknown scan key", "scan:\n  limit: 5\n", false},
		{"prefix with a space", "conform:\n  prefix: 'a b:'\n", false},
		{"prefix with a brace", "conform:\n  prefix: 'a{x}:'\n", false},
		{"prefix with a glob", "conform:\n  prefix: 'a*'\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, lerr := Parse("c.yaml", []byte(tc.src))
			serr := schemacheck.Validate([]byte(tc.src))
			if (lerr == nil) != tc.valid {
				t.Errorf("loader: %v, want valid=%v", lerr, tc.valid)
			}
			if (serr == nil) != tc.valid {
				t.Errorf("schema: %v, want valid=%v", serr, tc.valid)
			}
		})
	}
}

// TestSchemaKeysAreTheFileKeys: the schema's properties are exactly the
// yaml keys of File, at every level, and it refuses others.
func TestSchemaKeysAreTheFileKeys(t *testing.T) {
	_, raw, err := schemacheck.Schema()
	if err != nil {
		t.Fatal(err)
	}
	var walk func(path string, typ reflect.Type, node map[string]any)
	walk = func(path string, typ reflect.Type, node map[string]any) {
		props, _ := node["properties"].(map[string]any)
		if node["additionalProperties"] != false {
			t.Errorf("%s: the schema allows unknown keys", path)
		}
		var want, got []string
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			tag := f.Tag.Get("yaml")
			if tag == "" || tag == "-" {
				continue
			}
			want = append(want, tag)
			sub, _ := props[tag].(map[string]any)
			if sub == nil {
				continue
			}
			if d, _ := sub["description"].(string); d == "" && tag != "version" {
				if _, ref := sub["$ref"]; !ref {
					t.Errorf("%s.%s: no description for editors", path, tag)
				}
			}
			if f.Type.Kind() == reflect.Struct && f.Type.String() != "time.Duration" {
				walk(path+"."+tag, f.Type, sub)
			}
		}
		for k := range props {
			got = append(got, k)
		}
		sort.Strings(want)
		sort.Strings(got)
		if !slices.Equal(want, got) {
			t.Errorf("%s: schema keys %v, File keys %v", path, got, want)
		}
	}
	walk("(top)", reflect.TypeOf(File{}), raw)
}

// TestSchemaKnowsTheCatalog: the rule keys the schema lists are every
// rule's ID and name, and its target pattern is the known release lines.
func TestSchemaKnowsTheCatalog(t *testing.T) {
	_, raw, err := schemacheck.Schema()
	if err != nil {
		t.Fatal(err)
	}
	props := raw["properties"].(map[string]any)
	enum := props["rules"].(map[string]any)["propertyNames"].(map[string]any)["enum"].([]any)
	var got, want []string
	for _, k := range enum {
		got = append(got, k.(string))
	}
	for _, r := range rules.All() {
		want = append(want, string(r.ID), r.Name)
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("schema rule keys %v\nwant every ID and name: %v", got, want)
	}
	pat := raw["$defs"].(map[string]any)["target"].(map[string]any)["pattern"].(string)
	re := regexp.MustCompile(pat)
	for _, target := range rules.KnownTargets() {
		for _, s := range []string{target, target + ".3"} {
			if !re.MatchString(s) {
				t.Errorf("the schema's target pattern refuses %s", s)
			}
		}
	}
	for _, bad := range []string{"valkey-10.0", "valkey-9.3", "redis-5.0", "memcached-1.6", "valkey-9.0,valkey-8.1", "valkey"} {
		if re.MatchString(bad) {
			t.Errorf("the schema's target pattern accepts %s", bad)
		}
		if _, err := rules.ParseTarget(bad); err == nil {
			t.Errorf("the loader accepts %s, the schema does not", bad)
		}
	}
	if !strings.HasPrefix(pat, "^") || !strings.HasSuffix(pat, "$") {
		t.Errorf("target pattern %q is not anchored", pat)
	}
}
