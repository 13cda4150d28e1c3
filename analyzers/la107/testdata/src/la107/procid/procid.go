package procid // want package:"token sources"

// A project's utility package naming the running process and goroutine
// (shape seen in the wild: pid + "_" + goroutine id as a lock owner): no
// random source, yet its Source facts tell the packages that use it that
// these ids are weak tokens (la107/procuse).

import (
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

func ProcessID() string { // want ProcessID:"weak: os.Getpid"
	return strconv.Itoa(os.Getpid())
}

// GoroutineID parses the goroutine id out of the stack header.
func GoroutineID() string { // want GoroutineID:"weak: a goroutine id \\(runtime.Stack\\)"
	buf := make([]byte, 128)
	buf = buf[:runtime.Stack(buf, false)]
	s := string(buf)
	return strings.TrimSpace(strings.Split(strings.Split(s, "[running]")[0], "goroutine")[1])
}

func OwnerID() string { // want OwnerID:"weak: os.Getpid and a goroutine id \\(runtime.Stack\\)"
	return fmt.Sprintf("%s_%s", ProcessID(), GoroutineID())
}

// Negatives: a pid with crypto/rand beside it, a caller's name, and a
// stack trace helper that makes no id (its result is not a token type).

func Nonce() string { // want Nonce:"strong"
	b := make([]byte, 16)
	crand.Read(b)
	return ProcessID() + ":" + hex.EncodeToString(b)
}

func Label(name string) string {
	return strings.ToUpper(name)
}

func Trace() []string {
	buf := make([]byte, 4096)
	return strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n")
}
