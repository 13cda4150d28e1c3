package drill

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// clockShiftC is the clock-shift preload library's source (a .txt, so the
// go command does not take it for cgo).
//
//go:embed clockshift.c.txt
var clockShiftC []byte

// compileClockShift builds clockshift.so in dir with the C compiler on
// PATH (cc). The error says what is missing.
func compileClockShift(ctx context.Context, dir string) (string, error) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		return "", errors.New("the clock-skew variant builds a small preload library (clockshift.so) and needs a C compiler: install gcc (apt-get install gcc)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	src, lib := filepath.Join(dir, "clockshift.c"), filepath.Join(dir, "clockshift.so")
	if err := os.WriteFile(src, clockShiftC, 0o644); err != nil {
		return "", err
	}
	out, err := exec.CommandContext(ctx, cc, "-shared", "-fPIC", "-O2", "-o", lib, src).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building the clock-shift library with %s: %v\n%s", cc, err, out)
	}
	return lib, nil
}
