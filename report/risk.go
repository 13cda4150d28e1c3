package report

import (
	"github.com/lockaudit/lockaudit/report/finding"
	"github.com/lockaudit/lockaudit/rules"
)

// Risk is a finding's rating (finding.Risk; RiskOf rates it by the matrix).
type Risk = finding.Risk

// Risk levels, as Risk spells them.
const (
	RiskCritical = "critical"
	RiskHigh     = "high"
	RiskMedium   = "medium"
	RiskLow      = "low"
)

// riskMatrix[impact][exposure] is the rating.
var riskMatrix = map[string]map[string]string{
	RiskHigh:   {RiskHigh: RiskCritical, RiskMedium: RiskHigh, RiskLow: RiskMedium},
	RiskMedium: {RiskHigh: RiskHigh, RiskMedium: RiskMedium, RiskLow: RiskLow},
	RiskLow:    {RiskHigh: RiskMedium, RiskMedium: RiskLow, RiskLow: RiskLow},
}

// RiskOrder sorts ratings, the worst first.
var RiskOrder = map[string]int{RiskCritical: 0, RiskHigh: 1, RiskMedium: 2, RiskLow: 3}

func impactOf(s rules.Severity) string {
	switch s {
	case rules.Error:
		return RiskHigh
	case rules.Warning:
		return RiskMedium
	}
	return RiskLow
}

// RiskOf rates a finding of r: a code finding by the fleet's exposure, a
// server finding by its node's. What was not read is not safe: an
// unknown exposure is rated high.
func RiskOf(r *Run, f Finding) Risk {
	exp, why := fleetExposure(r)
	if f.Pos == nil {
		exp, why = nodeExposure(r, f.Node)
	}
	impact := impactOf(f.Severity)
	return Risk{Impact: impact, Exposure: exp, Rating: riskMatrix[impact][exp], Why: why}
}

// fleetExposure: high when a node other than the primary can be promoted
// by a failover (or the fleet was not read), medium when only a manual
// failover can, low with one primary nothing takes over from.
func fleetExposure(r *Run) (string, string) {
	if len(r.Nodes) == 0 {
		return RiskHigh, "the servers were not read: rated as a fleet that fails over"
	}
	manual, unknown := false, false
	for _, n := range r.Nodes {
		if n.Role != RoleReplica {
			continue
		}
		switch n.Promotable {
		case PromotableYes:
			return RiskHigh, "a replica can be promoted by an automatic failover"
		case PromotableManual:
			manual = true
		case PromotableUnknown:
			unknown = true
		}
	}
	switch {
	case unknown:
		return RiskHigh, "whether a replica can be promoted is not known"
	case manual:
		return RiskMedium, "a replica can be promoted, by hand only"
	}
	return RiskLow, "no other node can take over from the primary"
}

// nodeExposure: high for a node that is or can become primary (or whose
// standing is not known), medium for one only a manual failover promotes,
// low for one that never serves locks.
func nodeExposure(r *Run, addr string) (string, string) {
	for _, n := range r.Nodes {
		if n.Addr != addr {
			continue
		}
		switch {
		case n.Role == RolePrimary || n.Promotable == PromotableYes:
			return RiskHigh, "the server is, or can become, the primary"
		case n.Promotable == PromotableManual:
			return RiskMedium, "the server can become primary by hand only"
		case n.Role == RoleSentinel:
			return RiskHigh, "the Sentinel decides the failovers"
		case n.Promotable == PromotableNo:
			return RiskLow, "the server never serves the locks"
		}
		break
	}
	return RiskHigh, "whether the server can become primary is not known"
}
