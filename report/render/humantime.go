package render

import (
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/report"
)

// Dates for a client: "5 December 2026, 11:40 UTC" instead of RFC 3339
// with milliseconds. The technical appendix keeps the exact values.

const humanLayout = "2 January 2006, 15:04 MST"

// humanTime words an RFC 3339 time (with or without fractions) in its own
// time zone; a value that does not parse is shown as it is.
func humanTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	if zone := t.Format("MST"); strings.HasPrefix(zone, "+") || strings.HasPrefix(zone, "-") {
		return t.Format("2 January 2006, 15:04 (UTC-07:00)") // a zone without a name
	}
	return t.Format(humanLayout)
}

// humanWindow words a read window: "on 5 December 2026, 11:40–11:41 UTC",
// its start and end in one phrase when they are on the same day.
func humanWindow(w *report.Window) string {
	a, errA := time.Parse(time.RFC3339Nano, w.Start)
	b, errB := time.Parse(time.RFC3339Nano, w.End)
	if errA != nil || errB != nil {
		return "from " + w.Start + " to " + w.End
	}
	if a.Format("2006-01-02") == b.Format("2006-01-02") {
		if a.Format("15:04") == b.Format("15:04") {
			return "on " + humanTime(w.Start)
		}
		return "on " + a.Format("2 January 2006, 15:04") + "–" + humanTime(w.End)[len(b.Format("2 January 2006, ")):]
	}
	return "from " + humanTime(w.Start) + " to " + humanTime(w.End)
}
