package origin_test

import (
	"go/types"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/internal/origin"
)

// tok(value, "want") states TokenOrigin(value): "strong", "untraced", or
// "weak: <reason>".
const tokenSrc = `package p

import (
	crand "crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math/big"
	"math/rand"
	randv2 "math/rand/v2"
	"os"
	"strconv"
	"time"

	gofrs "github.com/gofrs/uuid/v5"
	"github.com/google/uuid"
)

const owner = "owner-1"

var processToken = newToken()

var hostTok, _ = os.Hostname()

var regenerated string

func regenerate() { regenerated = newToken() }

func newToken() string {
	b := make([]byte, 20)
	if _, err := crand.Read(b); err != nil {
		return ""
	}
	return hex.EncodeToString(b)
}

func newTokenErr() (string, error) {
	b := make([]byte, 20)
	if _, err := io.ReadFull(crand.Reader, b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func weakToken() string { return strconv.FormatInt(time.Now().UnixNano(), 10) }

type locker struct{ token string }

func f(param string, workerID int, id int, l *locker) {
	tok("1", "weak: the constant \"1\"")
	tok(1, "weak: the constant 1")
	tok(owner, "weak: the constant \"owner-1\"")
	h, _ := os.Hostname()
	tok(h, "weak: os.Hostname")
	tok(os.Getpid(), "weak: os.Getpid")
	tok(fmt.Sprintf("%s-%d", h, os.Getpid()), "weak: os.Hostname and os.Getpid")
	tok(h+":"+strconv.Itoa(os.Getpid()), "weak: os.Hostname and os.Getpid")
	tok(time.Now().UnixNano(), "weak: time.Now")
	tok(time.Now().Format(time.RFC3339Nano), "weak: time.Now")
	tok(time.Now().String(), "weak: time.Now")
	tok(weakToken(), "weak: time.Now")
	tok(rand.Int63(), "weak: math/rand's global source")
	tok(strconv.Itoa(rand.Intn(1000000)), "weak: math/rand's global source")
	r := rand.New(rand.NewSource(1))
	tok(r.Int63(), "weak: math/rand seeded with a constant")
	mb := make([]byte, 16)
	rand.Read(mb)
	tok(hex.EncodeToString(mb), "weak: math/rand's global source")
	tr := rand.New(rand.NewSource(time.Now().UnixNano()))
	tok(tr.Int63(), "weak: math/rand seeded with time.Now")
	pcg := randv2.New(randv2.NewPCG(uint64(time.Now().UnixNano()), 7))
	tok(strconv.FormatUint(pcg.Uint64(), 36), "weak: math/rand/v2 PCG seeded with time.Now")
	tok(randv2.NewChaCha8([32]byte{1}).Uint64(), "weak: math/rand/v2 ChaCha8 seeded with a constant")
	tok(timeGen.Int63(), "weak: math/rand seeded with time.Now")

	// Strong: math/rand/v2's runtime-seeded functions, and generators
	// seeded from crypto/rand (directly, through a field, through a
	// constructor's parameter).
	tok(randv2.Uint64(), "strong")
	tok(randv2.N(1<<62), "strong")
	var seed [32]byte
	crand.Read(seed[:])
	cc := randv2.New(randv2.NewChaCha8(seed))
	tok(strconv.FormatUint(cc.Uint64(), 36), "strong")
	sb := make([]byte, 8)
	crand.Read(sb)
	cs := rand.New(rand.NewSource(int64(binary.LittleEndian.Uint64(sb))))
	tok(cs.Int63(), "strong")
	tok(newGen().rng.Uint64(), "strong")
	g := newGen()
	gb := make([]byte, 16)
	g.rng.Read(gb)
	tok(hex.EncodeToString(gb), "strong")
	tok(param2gen(nil).Uint64(), "untraced")
	// /dev/urandom read directly (ryandotsmith/redisync's uuid); another
	// file is no randomness.
	uf, _ := os.Open("/dev/urandom")
	ub := make([]byte, 16)
	uf.Read(ub)
	tok(fmt.Sprintf("%x-%x", ub[0:4], ub[4:]), "strong")
	rf, _ := os.Open("/dev/urandom")
	rb := make([]byte, 16)
	io.ReadFull(rf, rb)
	tok(hex.EncodeToString(rb), "strong")
	cf, _ := os.Open("/etc/machine-id")
	cb := make([]byte, 16)
	cf.Read(cb)
	tok(hex.EncodeToString(cb), "untraced")
	tok(processToken, "weak: the package-level variable processToken")
	tok(hostTok, "weak: the package-level variable hostTok")
	tok(workerID, "weak: the worker id workerID")
	for i := 0; i < 3; i++ {
		tok(i, "weak: the loop index i (a goroutine or worker id)")
	}
	for w := range 4 {
		tok(strconv.Itoa(w), "weak: the loop index w (a goroutine or worker id)")
	}
	tu, _ := uuid.NewUUID()
	tok(tu.String(), "weak: a time-based UUID (uuid.NewUUID)")
	tok(uuid.NewSHA1(uuid.NameSpaceDNS, []byte("x")).String(), "weak: a name-based UUID (uuid.NewSHA1)")
	tok(gofrs.NewV5(gofrs.NamespaceDNS, "x").String(), "weak: a name-based UUID (uuid.NewV5)")
	tok(fmt.Sprintf("lock"), "weak: a constant")

	b := make([]byte, 20)
	crand.Read(b)
	tok(hex.EncodeToString(b), "strong")
	tok(base64.StdEncoding.EncodeToString(b), "strong")
	tok(string(b), "strong")
	tok(crand.Text(), "strong")
	n, _ := crand.Int(crand.Reader, big.NewInt(1<<62))
	tok(n.String(), "strong")
	tok(newToken(), "strong")
	t2, _ := newTokenErr()
	tok(t2, "strong")
	tok(uuid.NewString(), "strong")
	tok(uuid.New().String(), "strong")
	tok(uuid.Must(uuid.NewRandom()).String(), "strong")
	u7, _ := uuid.NewV7()
	tok(u7.String(), "strong")
	tok(gofrs.Must(gofrs.NewV4()).String(), "strong")
	tok(h+":"+uuid.NewString(), "strong")
	tok(fmt.Sprintf("%s-%d-%s", h, os.Getpid(), crand.Text()), "strong")

	tok(param, "untraced")
	tok(id, "untraced")
	tok(l.token, "untraced")
	tok(regenerated, "untraced")
	tok(param+h, "untraced")
	var mixed string
	if param == "" {
		mixed = "fixed"
	} else {
		mixed = uuid.NewString()
	}
	tok(mixed, "untraced")
	tok(other(), "untraced")
	tok(shadowNil(param), "untraced")
}

func other() string { return os.Getenv("TOKEN") }

// shadowNil's "return nil" returns its parameter, not a zero value on a
// failure path: the result is as untraced as the parameter.
func shadowNil(nil string) string {
	if nil != "" {
		return nil
	}
	return uuid.NewString()
}

var timeGen = rand.New(rand.NewSource(time.Now().UnixNano()))

// gen keeps a ChaCha8 generator seeded from crypto/rand (livekit's guid).
type gen struct{ rng *randv2.ChaCha8 }

func newGen() *gen {
	var s [32]byte
	crand.Read(s[:])
	return newGenFromSeed(s)
}

func newGenFromSeed(s [32]byte) *gen { return &gen{rng: randv2.NewChaCha8(s)} }

func param2gen(r *randv2.Rand) *randv2.Rand { return r }

func tok(v any, want string) {}
`

func TestTokenOrigin(t *testing.T) {
	in := load(t, tokenSrc)
	for _, c := range analyzertest.MustCalls(t, in.Index, "tok") {
		o := origin.Of(in.Index, c.Args[0])
		got := [...]string{"untraced", "weak", "strong"}[o.Strength]
		if o.Strength == origin.Weak {
			got += ": " + o.Reason()
		}
		if want := analyzertest.ConstString(in.Index, c.Args[1]); got != want {
			t.Errorf("line %d: %s: %s, want %s", in.Line(c.Pos()), types.ExprString(c.Args[0]), got, want)
		}
	}
}

func TestWords(t *testing.T) {
	for name, want := range map[string]string{
		"workerID": "worker id", "worker_id": "worker id", "goroutineNum": "goroutine num",
		"wid": "wid", "ID": "id", "w2": "w",
	} {
		if got := strings.Join(origin.Words(name), " "); got != want {
			t.Errorf("words(%q) = %q, want %q", name, got, want)
		}
	}
}

// load type-checks a snippet (analyzertest.Load).
func load(t *testing.T, src string) *analyzertest.Snippet { return analyzertest.Load(t, src) }
