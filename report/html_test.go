package report_test

import (
	"testing"
)

func TestHTMLGolden(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			goldenDoc(t, name+".html", render(t, loadRun(t, name), "html"))
		})
	}
}
