package report

import (
	"encoding/json"
	"io"
)

func init() { registerFormat("json", renderJSON) }

// renderJSON writes the Run itself, indented, with a final newline. The
// output is stable: field order is the struct's, findings are sorted by the
// producer (Run.Sort), maps are written with sorted keys, and nil slices the
// schema promises (findings) are written as [].
func renderJSON(w io.Writer, r *Run) error {
	out := *r
	if out.Findings == nil {
		out.Findings = []Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(&out)
}
