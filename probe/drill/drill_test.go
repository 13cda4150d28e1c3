package drill_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/probe/drill"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
)

// playOne plays one setting on real servers and returns its variant.
func playOne(t *testing.T, setting string) report.DrillVariant {
	t.Helper()
	servertest.Require(t, servertest.Valkey91)
	d, err := drill.Run(context.Background(), drill.Options{Settings: []string{setting}, Dir: t.TempDir(),
		Event: func(s string, e report.DrillEvent) {
			t.Logf("%6dms %-8s %-16s %s %s %s %s", e.AtMS, e.Actor, e.Node, strings.Join(e.Command, " "), e.Reply, e.Step, e.Detail)
		}})
	if err != nil {
		t.Fatal(err)
	}
	v := d.Variants[0]
	if v.Error != "" || v.Skipped != "" {
		t.Fatalf("%s: error %q, skipped %q", setting, v.Error, v.Skipped)
	}
	return v
}

func TestExplore(t *testing.T) {
	for _, s := range []string{report.SettingWait, report.SettingMinReplicas, report.SettingMinReplicasLag, report.SettingAppendfsync, report.SettingClockSkew} {
		v := playOne(t, s)
		t.Logf("%s %+v", s, v.Outcome)
	}
	return
	v := playOne(t, report.SettingNone)
	t.Logf("%+v", v.Outcome)
}
