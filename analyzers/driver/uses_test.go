package driver_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/analyzers/uses"
	"github.com/lockaudit/lockaudit/report/finding"
)

// TestUsesCollected: with uses.Analyzer among the root analyzers, Run fills
// Run.Uses from every package of the bundled example (real client modules),
// positions relative to the module root; -tests analyses files twice but
// each site appears once; without the analyzer Uses stays empty.
func TestUsesCollected(t *testing.T) {
	if testing.Short() {
		t.Skip("loads real modules")
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "example"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := driver.Run(context.Background(), driver.Options{Dir: dir, Analyzers: []*analysis.Analyzer{uses.Analyzer}})
	if err != nil || len(run.Errors) > 0 {
		t.Fatalf("driver.Run: %v %v", err, run.Errors)
	}
	byCmd := map[string][]finding.Site{}
	var order []string
	for _, u := range run.Uses {
		order = append(order, u.Command.String())
		byCmd[u.Command.String()] = u.Sites
	}
	if fmt.Sprint(order) != "[delifeq ifeq lua]" {
		t.Errorf("commands %v, want [delifeq ifeq lua] (the example no longer uses DELEX)", order)
	}
	want := map[string]string{
		"delifeq": "billing/billing.go:56:2 DELIFEQ release|billing/billing.go:83:12 DELIFEQ release|checkout/checkout.go:65:19 DELIFEQ release|inventory/inventory.go:56:22 DELIFEQ release|shipping/shipping.go:46:12 DELIFEQ release|shipping/shipping.go:75:12 DELIFEQ release",
		"ifeq":    "billing/billing.go:74:12 SET IFEQ extend|checkout/checkout.go:53:12 SET IFEQ extend|shipping/shipping.go:39:12 SET IFEQ extend",
		"lua":     "billing/billing.go:33:12 Lua compare-and-delete script (billing.go:13)|reports/reports.go:27:13 redsync Mutex.UnlockContext (Lua release)|reports/reports.go:39:12 bsm/redislock Obtain (Lua acquire)|reports/reports.go:49:12 bsm/redislock Lock.Release (Lua release)",
	}
	for cmd, w := range want {
		var got []string
		for _, s := range byCmd[cmd] {
			got = append(got, s.Pos.String()+" "+s.What)
		}
		if strings.Join(got, "|") != w {
			t.Errorf("%s sites:\n got %s\nwant %s", cmd, strings.Join(got, "|"), w)
		}
	}

	withTests, err := driver.Run(context.Background(), driver.Options{Dir: dir, Analyzers: []*analysis.Analyzer{uses.Analyzer}, Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(withTests.Uses) != fmt.Sprint(run.Uses) {
		t.Errorf("-tests changed the uses:\n%v\n%v", withTests.Uses, run.Uses)
	}

	without, err := driver.Run(context.Background(), driver.Options{Dir: dir, Analyzers: []*analysis.Analyzer{calls}})
	if err != nil {
		t.Fatal(err)
	}
	if len(without.Uses) != 0 {
		t.Errorf("Uses without the uses analyzer: %v", without.Uses)
	}
}
