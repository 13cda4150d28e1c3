package report

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// contractDoc is the JSON contract's page.
var contractDoc = filepath.Join("..", "docs", "json.md")

// TestJSONContractDocumented: the field list of docs/json.md is exactly
// the fields the JSON form has (read from the types' tags, the verdict's
// from its JSON form), so a field cannot be added, renamed or dropped
// without the contract saying so.
func TestJSONContractDocumented(t *testing.T) {
	data, err := os.ReadFile(contractDoc)
	if err != nil {
		t.Fatal(err)
	}
	begin, end := bytes.Index(data, []byte("<!-- fields:begin -->")), bytes.Index(data, []byte("<!-- fields:end -->"))
	if begin < 0 || end < begin {
		t.Fatalf("%s has no fields:begin/fields:end block", contractDoc)
	}
	documented := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data[begin:end]))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "<!--") || strings.HasPrefix(f[0], "```") {
			continue
		}
		if documented[f[0]] {
			t.Errorf("%s lists %s twice", contractDoc, f[0])
		}
		documented[f[0]] = true
	}
	have := map[string]bool{}
	jsonFields(reflect.TypeFor[Run](), "", have)
	for p := range have {
		if !documented[p] {
			t.Errorf("%s is in the JSON form but not in %s", p, contractDoc)
		}
	}
	for p := range documented {
		if !have[p] {
			t.Errorf("%s lists %s, which the JSON form does not have", contractDoc, p)
		}
	}
}

var textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()

// jsonFields lists the leaf field paths of t's JSON form.
func jsonFields(t reflect.Type, prefix string, out map[string]bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[Verdict]() {
		t = reflect.TypeFor[verdictJSON]()
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		path := prefix + name
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case ft.Implements(textMarshaler) || reflect.PointerTo(ft).Implements(textMarshaler):
			out[path] = true
		case ft.Kind() == reflect.Struct:
			jsonFields(ft, path+".", out)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct && !ft.Elem().Implements(textMarshaler):
			jsonFields(ft.Elem(), path+"[].", out)
		default: // strings, numbers, booleans, lists of strings, maps
			out[path] = true
		}
	}
}

// realRuns are runs of `lockaudit audit` on the bundled example against a
// live Valkey 9.1 primary with a promotable 8.1 replica: one written by
// the lockaudit of each schema version, the last by this one (saved by
// cmd/lockaudit's TestAuditFormatsAndRender -update).
var realRuns = map[int]string{
	1: filepath.Join("testdata", "v1", "audit-example.json"),
	2: filepath.Join("testdata", "v2", "audit-example.json"),
	3: filepath.Join("..", "cmd", "lockaudit", "testdata", "audit-example.json"),
}

// notReadBack says whether the field at p of a run of the version is
// dropped when the run is read: a version 2 run's checks, whose reasons
// held sentences (the reasons in words are kept), and the plan made from
// them.
func notReadBack(version int, p string) bool {
	return version == 2 && (strings.HasPrefix(p, "verdict.checks[") || strings.HasPrefix(p, "plan."))
}

// flatten lists a JSON document's leaves by path ("findings[3].rule").
func flatten(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, strings.TrimPrefix(path+"."+k, "."))
			}
		case []any:
			for i, e := range x {
				walk(e, fmt.Sprintf("%s[%d]", path, i))
			}
		default:
			out[path] = v
		}
	}
	walk(doc, "")
	return out
}

// TestReadsEverySchema: a saved run of any version decodes and,
// re-rendered as JSON, keeps every field a script of its
// version reads, at its place and with its value, but a version 2 run's
// checks (notReadBack); a run of this version re-renders byte for byte.
func TestReadsEverySchema(t *testing.T) {
	for version, path := range realRuns {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := DecodeRun(data)
		if err != nil {
			t.Fatalf("schema %d: %v", version, err)
		}
		if r.SchemaVersion != version {
			t.Errorf("%s: schema_version %d, want %d", path, r.SchemaVersion, version)
		}
		var out bytes.Buffer
		if err := WriteJSON(&out, r.Prepared()); err != nil {
			t.Fatal(err)
		}
		if version == SchemaVersion && !bytes.Equal(out.Bytes(), data) {
			t.Errorf("schema %d: re-rendered JSON differs from the saved run", version)
		}
		old, again := flatten(t, data), flatten(t, out.Bytes())
		for p, v := range old {
			if p == "schema_version" || notReadBack(version, p) {
				continue
			}
			if !reflect.DeepEqual(again[p], v) {
				t.Errorf("schema %d: %s is %v after re-rendering, was %v", version, p, again[p], v)
			}
		}
		if again["schema_version"] != float64(SchemaVersion) {
			t.Errorf("schema %d re-rendered as schema_version %v", version, again["schema_version"])
		}
	}
}

// TestSameAnswersAcrossSchemas: the real runs — the same example and the
// same fleet, audited by the lockaudit of each schema — give the same
// verdict, reasons, findings and node answers: the redesigns changed the
// form, not the answers. Schema 3 typed the parts of each check's reasons
// that version 2 held as sentences: the reasons in words are the same.
func TestSameAnswersAcrossSchemas(t *testing.T) {
	flat := map[int]map[string]any{}
	for version, path := range realRuns {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		flat[version] = flatten(t, data)
	}
	compared := 0
	for version := 1; version < SchemaVersion; version++ {
		for p, v := range flat[version] {
			if !slices.ContainsFunc([]string{"verdict.", "findings[", "uses[", "nodes["}, func(pre string) bool { return strings.HasPrefix(p, pre) }) ||
				strings.Contains(p, ".evidence[") {
				continue // the evidence holds clock offsets and round trips of each run
			}
			if strings.HasPrefix(p, "findings[") && strings.HasSuffix(p, "].message") {
				continue // a code finding's wording is not its answer: its rule, place and severity are
			}
			if version == 2 && strings.HasPrefix(p, "findings[") && strings.HasSuffix(p, "].id") {
				continue // the version 2 run's node finding IDs hashed its live ports (since made from the stand-ins)
			}
			if strings.HasPrefix(p, "verdict.checks[") && slices.ContainsFunc([]string{".evidence", ".promotion", ".gap", ".advice"}, func(part string) bool {
				return strings.Contains(p, "].reasons[") && strings.Contains(p[strings.LastIndex(p, "]"):], part)
			}) {
				continue // a sentence in version 2, typed in 3: the reasons in words compare them
			}
			compared++
			if !reflect.DeepEqual(flat[SchemaVersion][p], v) {
				t.Errorf("%s: %v in the schema %d run, %v in the schema %d run", p, flat[SchemaVersion][p], SchemaVersion, v, version)
			}
		}
	}
	if compared < 100 {
		t.Errorf("only %d fields compared", compared)
	}
}
