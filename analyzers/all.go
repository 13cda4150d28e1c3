// Package analyzers lists lockaudit's go/analysis analyzers, one per LA1xx
// rule. Each rule lives in its own package (analyzers/la101 ...); they all
// share the call-resolution layer in analyzers/internal/resolve.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/la101"
	"github.com/lockaudit/lockaudit/analyzers/la102"
	"github.com/lockaudit/lockaudit/analyzers/la103"
	"github.com/lockaudit/lockaudit/analyzers/la104"
	"github.com/lockaudit/lockaudit/analyzers/la105"
	"github.com/lockaudit/lockaudit/analyzers/la106"
	"github.com/lockaudit/lockaudit/analyzers/la107"
	"github.com/lockaudit/lockaudit/analyzers/la108"
	"github.com/lockaudit/lockaudit/analyzers/la109"
	"github.com/lockaudit/lockaudit/analyzers/la110"
	"github.com/lockaudit/lockaudit/analyzers/la111"
	"github.com/lockaudit/lockaudit/analyzers/la112"
	"github.com/lockaudit/lockaudit/analyzers/la113"
	"github.com/lockaudit/lockaudit/analyzers/la114"
	"github.com/lockaudit/lockaudit/analyzers/la115"
)

// All returns every rule analyzer, sorted by rule ID. A test checks it
// against the catalog's code rules.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		// Rule packages add themselves here, in ID order.
		la101.Analyzer,
		la102.Analyzer,
		la103.Analyzer,
		la104.Analyzer,
		la105.Analyzer,
		la106.Analyzer,
		la107.Analyzer,
		la108.Analyzer,
		la109.Analyzer,
		la110.Analyzer,
		la111.Analyzer,
		la112.Analyzer,
		la113.Analyzer,
		la114.Analyzer,
		la115.Analyzer,
	}
}
