package reply

import (
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
)

// Each function holds one command (its first op is classified); its name
// says the expected use: d_ discarded, e_ error only, x_ examined, u_ unseen.
const replySrc = `package p

import (
	"errors"
	"log"
)

var sink any

type holder struct{ r any }

// go-redis style: a reply object.
func d_stmt()             { delifeq("k", "t") }
func d_defer()            { defer delifeq("k", "t") }
func d_go()               { go delifeq("k", "t") }
func d_blank()            { _ = delifeq("k", "t") }
func d_errStmt()          { delifeq("k", "t").Err() }
func d_blankErr()         { _ = delifeq("k", "t").Err() }
func d_blankResult()      { _, _ = delifeq("k", "t").Result() }
func d_varUnused()        { c := delifeq("k", "t"); _ = c }
func e_err() error        { return delifeq("k", "t").Err() }
func e_ifErr() {
	if err := delifeq("k", "t").Err(); err != nil {
		log.Print(err)
	}
}
func e_result() error     { _, err := delifeq("k", "t").Result(); return err }
func e_varErr() error     { c := delifeq("k", "t"); return c.Err() }
func e_varErrTwice() error {
	c := delifeq("k", "t")
	if c.Err() != nil {
		return c.Err()
	}
	return nil
}
func x_val() bool         { return delifeq("k", "t").Val() == 1 }
func x_result() error {
	n, err := delifeq("k", "t").Result()
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("lost")
	}
	return nil
}
func x_int() int64        { n, _ := delifeq("k", "t").Int(); return n }
func x_varVal() int64     { c := delifeq("k", "t"); return c.Val() }
func x_string() string    { return delifeq("k", "t").String() }
func x_reassigned() int64 {
	var n int64
	n, _ = delifeq("k", "t").Int()
	n += 1
	return n
}
func u_returned() *Cmd    { return delifeq("k", "t") }
func u_passed()           { keep(delifeq("k", "t")) }
func u_field(h *holder)   { h.r = delifeq("k", "t") }
func u_pkgVar()           { sink = delifeq("k", "t") }
func u_methodValue() func() int64 { return delifeq("k", "t").Val }
func x_namedResult() (n int64, err error) {
	n, err = delifeq("k", "t").Result()
	return
}
func e_namedErr() (err error) {
	_, err = delifeq("k", "t").Result()
	return
}

// redigo style: (reply, err).
func d_rgStmt()           { rgDelifeq("k", "t") }
func d_rgBlank()          { _, _ = rgDelifeq("k", "t") }
func e_rgErr() error      { _, err := rgDelifeq("k", "t"); return err }
func x_rgReply() bool     { r, _ := rgDelifeq("k", "t"); return r == int64(1) }
func x_rgConvert() error {
	n, err := toInt(rgDelifeq("k", "t"))
	if n == 0 {
		return err
	}
	return nil
}
func e_rgConvertErr() error { _, err := toInt(rgDelifeq("k", "t")); return err }

// valkey-go style: ValkeyResult.
func d_vkStmt()           { vkDelifeq("k", "t") }
func e_vkError() error    { return vkDelifeq("k", "t").Error() }
func x_vkAsInt() int64    { n, _ := vkDelifeq("k", "t").AsInt64(); return n }
func e_vkAsIntErr() error { _, err := vkDelifeq("k", "t").AsInt64(); return err }

// glide style: (value, error).
func e_glErr() error      { _, err := glDelifeq("k", "t"); return err }
func x_glVal() any        { v, _ := glDelifeq("k", "t"); return v }

// radix: the reply goes into the receiver.
func e_rxNil() error      { return rxDo(rxCmd(nil, "DELIFEQ", "k", "t")) }
func d_rxNilStmt()        { rxDo(rxCmd(nil, "DELIFEQ", "k", "t")) }
func d_rxStmt()           { var n int; rxDo(rxCmd(&n, "DELIFEQ", "k", "t")) }
func x_rxRead() bool      { var n int; _ = rxDo(rxCmd(&n, "DELIFEQ", "k", "t")); return n == 1 }
func e_rxUnread() error   { var n int; return rxDo(rxCmd(&n, "DELIFEQ", "k", "t")) }
func u_rxPtr(p *int)      { rxDo(rxCmd(p, "DELIFEQ", "k", "t")) }

// Libraries: checking the error is examining.
func d_libStmt()          { libUnlock() }
func d_libDefer()         { defer libRelease() }
func d_libBlank()         { _, _ = libUnlock() }
func x_libErr() error     { _, err := libUnlock(); return err }
func x_libRelease() error { return libRelease() }

// SET IFEQ on go-redis / valkey-go turns a nil reply into an error.
func x_ifeqErr() error    { return setIfeq("k", "t").Err() }
func x_vkIfeqErr() error  { return vkSetIfeq("k", "t").Error() }
func e_rgIfeqErr() error  { _, err := rgSetIfeq("k", "t"); return err }
func e_glIfeqErr() error  { _, err := glSetIfeq("k", "t"); return err }
func d_ifeqStmt()         { setIfeq("k", "t") }

// Queued in a transaction: the reply can be read from the Exec results.
func d_txAllDropped() {
	multi(func() { delifeq("k", "t") })
}
func e_txErr() error {
	_, err := multi(func() { delifeq("k", "t") })
	return err
}
func u_txResults() any {
	cmds, _ := multi(func() { delifeq("k", "t") })
	return cmds[0]
}
func x_txOwnVar() int64 {
	var c *Cmd
	multi(func() { c = delifeq("k", "t") })
	return c.Val()
}
func e_txSend() error {
	_, err := multi(func() { rgSend("k", "t") })
	return err
}
func u_sendAlone()        { rgSend("k", "t") }

// valkey-go DoMulti: a slice of results.
func e_vkRangeErr() error {
	for _, r := range vkMulti(1, 2) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}
func x_vkIndex() int64    { n, _ := vkMulti(1, 2)[1].AsInt64(); return n }
func d_vkMultiStmt()      { vkMulti(1, 2) }

func keep(c *Cmd)                    {}
func toInt(r any, err error) (int64, error) { return 0, err }
`

func TestReplyUse(t *testing.T) {
	in := load(t, replySrc)
	want := map[string]Use{"d": Discarded, "e": ErrorOnly, "x": Examined, "u": Unseen}
	n := 0
	seen := map[string]bool{}
	for _, op := range in.Ops {
		if op.Func == nil || seen[op.Func.Name.Name] {
			continue
		}
		name := op.Func.Name.Name
		prefix, _, ok := strings.Cut(name, "_")
		w, known := want[prefix]
		if !ok || !known {
			continue
		}
		seen[name] = true
		n++
		if got := Of(in.Index, op); got != w {
			t.Errorf("%s: %s, want %s", name, got, w)
		}
	}
	if n < 50 {
		t.Errorf("checked %d cases, want at least 50", n)
	}
}

// load type-checks a snippet (analyzertest.Load).
func load(t *testing.T, src string) *analyzertest.Snippet { return analyzertest.Load(t, src) }
