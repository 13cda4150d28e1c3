// Package sarifcheck checks SARIF that lockaudit writes, for tests: against
// the SARIF 2.1.0 JSON schema embedded here (sarif-2.1.0.json), and with
// Microsoft's SARIF Multitool (GitHub's ingestion rules included) when
// LOCKAUDIT_SARIF_MULTITOOL points at its binary. Only tests import it.
package sarifcheck

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaJSON is the SARIF 2.1.0 schema (sarif-2.1.0.json of the npm
// package @microsoft/sarif-multitool-linux@5.7.0), embedded so the check
// works from any working directory and in any build.
//
//go:embed sarif-2.1.0.json
var schemaJSON []byte

var (
	once   sync.Once
	schema *jsonschema.Schema
	errSch error
)

// Validate checks data against the SARIF 2.1.0 schema. The error lists
// every violation with its JSON pointer.
func Validate(data []byte) error {
	once.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
		if err != nil {
			errSch = fmt.Errorf("sarif-2.1.0.json: %v", err)
			return
		}
		c := jsonschema.NewCompiler()
		const url = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-2.1.0.json"
		if err := c.AddResource(url, doc); err != nil {
			errSch = err
			return
		}
		schema, errSch = c.Compile(url)
	})
	if errSch != nil {
		return fmt.Errorf("loading the SARIF schema: %v", errSch)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	return schema.Validate(inst)
}

// EnvMultitool names the variable holding the Sarif.Multitool binary's path
// (.ci/test installs it and sets it).
const EnvMultitool = "LOCKAUDIT_SARIF_MULTITOOL"

// Multitool runs `Sarif.Multitool validate --rule-kind "Gh;Sarif"` on data
// and fails t for every error it reports (lines with ": error "), which is
// what "GitHub code scanning accepts it" means in practice. It skips, with
// the reason, when LOCKAUDIT_SARIF_MULTITOOL is not set.
func Multitool(t testing.TB, data []byte) {
	t.Helper()
	bin := os.Getenv(EnvMultitool)
	if bin == "" {
		t.Skipf("%s is not set: skipping the SARIF Multitool check (.ci/test installs it: npm install @microsoft/sarif-multitool@5.7.0)", EnvMultitool)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "run.sarif")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "validate", "--rule-kind", "Gh;Sarif", in, "-o", filepath.Join(dir, "out.sarif"))
	// Invariant globalization lets the .NET binary start where libicu is
	// not installed; reading SARIF needs no culture data.
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	out, err := cmd.CombinedOutput()
	var errs []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, ": error ") {
			errs = append(errs, line)
		}
	}
	if len(errs) > 0 {
		t.Errorf("SARIF Multitool reports %d errors:\n%s", len(errs), strings.Join(errs, "\n"))
	}
	if err != nil && len(errs) == 0 {
		t.Errorf("SARIF Multitool failed: %v\n%s", err, out)
	}
	if testing.Verbose() {
		t.Logf("SARIF Multitool:\n%s", out)
	}
}
