package resolve

import "testing"

// TestClientTable holds the client table together: every client states its
// traits, the grouping forms its rows use are in its Tx, and a library
// names the steps its rows produce.
func TestClientTable(t *testing.T) {
	known("") // fills knowledge
	if len(knowledge) < 20 {
		t.Fatalf("only %d packages known", len(knowledge))
	}
	for path, info := range knowledge {
		c := info.client
		if c == nil || c.Name == "" || c.API == 0 || info.handle == nil {
			t.Errorf("%s: client %+v, handler set %v", path, c, info.handle != nil)
			continue
		}
		if info.builder && info.cmdsOf == nil {
			t.Errorf("%s: a builder package without its client", path)
		}
		steps := map[string]bool{}
		for name, s := range info.specs {
			switch s.h {
			case hTxFunc:
				want(t, path, name, c, TxCallback)
			case hTxNew, hGlBatchNew:
				want(t, path, name, c, TxObject)
			case hVkDoMulti:
				want(t, path, name, c, TxList)
			case hLib:
				steps[s.step] = true
			}
		}
		if len(steps) == 0 {
			continue
		}
		lib := c
		if info.lib != nil {
			lib = info.lib
		}
		if lib.API != APILibrary || lib.Lib == nil || lib.Lib.Module == "" || lib.Lib.Summary == "" {
			t.Errorf("%s: library client %+v", path, lib)
			continue
		}
		for step := range lib.Lib.Lua {
			if !steps[step] {
				t.Errorf("%s: Lua step %q is no step of its calls", path, step)
			}
		}
		if (steps["release"] || steps["extend"]) && lib.Lib.Lost == "" {
			t.Errorf("%s: releases or extends but does not say what tells a lost lock", path)
		}
	}
}

func want(t *testing.T, path, name string, c *Client, tx TxStyle) {
	t.Helper()
	if c.Tx&tx == 0 {
		t.Errorf("%s: %s groups commands (%b) but the client's Tx is %b", path, name, tx, c.Tx)
	}
}
