package report_test

import (
	"testing"
)

func TestMarkdownGolden(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			goldenDoc(t, name+".md", render(t, loadRun(t, name), "markdown"))
		})
	}
}
