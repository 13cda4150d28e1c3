// Package schemacheck validates .lockaudit.yaml text against the JSON
// Schema that ships for editors (docs/lockaudit.schema.json), so tests can
// hold the schema to the loader (rules/config) and to what config init
// writes.
package schemacheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// SchemaPath is docs/lockaudit.schema.json of this repository.
func SchemaPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "docs", "lockaudit.schema.json")
}

var (
	once   sync.Once
	schema *jsonschema.Schema
	raw    map[string]any
	errSch error
)

// Schema returns the compiled schema and its JSON as decoded maps.
func Schema() (*jsonschema.Schema, map[string]any, error) {
	once.Do(func() {
		data, err := os.ReadFile(SchemaPath())
		if err != nil {
			errSch = err
			return
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			errSch = fmt.Errorf("%s: %v", SchemaPath(), err)
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			errSch = fmt.Errorf("%s: %v", SchemaPath(), err)
			return
		}
		c := jsonschema.NewCompiler()
		id, _ := raw["$id"].(string)
		if err := c.AddResource(id, doc); err != nil {
			errSch = err
			return
		}
		schema, errSch = c.Compile(id)
	})
	return schema, raw, errSch
}

// Validate checks config text (YAML) against the schema. An empty file is
// an empty mapping, as the loader reads it.
func Validate(data []byte) error {
	s, _, err := Schema()
	if err != nil {
		return fmt.Errorf("loading the schema: %v", err)
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("not YAML: %v", err)
	}
	if v == nil {
		v = map[string]any{}
	}
	js, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("not expressible as JSON (keys must be strings): %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}
