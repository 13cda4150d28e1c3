package report_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The HTML report is checked in a real browser: Debian's headless Chromium
// renders it, takes a screenshot and dumps the DOM. The test is skipped when
// Chromium is absent, unless LOCKAUDIT_REQUIRE_BROWSER=1 (CI sets it), and
// under -short. Set LOCKAUDIT_SCREENSHOT_DIR to keep the screenshots.

// chromium finds the browser or skips (or fails, when CI requires it).
func chromium(t *testing.T) string {
	t.Helper()
	required := os.Getenv("LOCKAUDIT_REQUIRE_BROWSER") == "1"
	if testing.Short() && !required {
		t.Skip("browser test skipped under -short")
	}
	for _, c := range []string{"chromium", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	if required {
		t.Fatal("LOCKAUDIT_REQUIRE_BROWSER=1 but Chromium is not installed (apt-get install -y chromium)")
	}
	t.Skip("Chromium not found (apt-get install -y chromium to run this test; CI sets LOCKAUDIT_REQUIRE_BROWSER=1)")
	return ""
}

// headless runs Chromium with the flags TOOLS.md gives for these machines
// (no sandbox as root, no background network) plus extra, on a file.
// Chromium's helper processes are in their own process group, which is
// killed when it returns, so nothing outlives the test.
func headless(t *testing.T, bin, file string, extra ...string) []byte {
	t.Helper()
	profile := t.TempDir()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile}, extra...)
	args = append(args, "file://"+file)
	// A guard against a hung browser, not a timing assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "HOME="+profile)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // stray helpers, if any
	}
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(extra, " "), err, tail(stderr.String(), 2000))
	}
	return stdout.Bytes()
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// cssColor reads a color variable from the report's stylesheet, so the
// test follows the design rather than repeating it.
func cssColor(t *testing.T, name string) color.RGBA {
	t.Helper()
	css, err := os.ReadFile(filepath.Join("templates", "report.css"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`--` + name + `:\s*#([0-9a-fA-F]{6})`).FindSubmatch(css)
	if m == nil {
		t.Fatalf("no --%s color in report.css", name)
	}
	v, _ := strconv.ParseUint(string(m[1]), 16, 32)
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
}

// countColor counts the pixels of a region within a small tolerance of c.
func countColor(img image.Image, r image.Rectangle, c color.RGBA) int {
	near := func(a uint32, b uint8) bool { d := int(a>>8) - int(b); return d >= -6 && d <= 6 }
	n := 0
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if near(pr, c.R) && near(pg, c.G) && near(pb, c.B) {
				n++
			}
		}
	}
	return n
}

// bannerRows counts the rows among the first h whose pixels are at least
// half of color c.
func bannerRows(img image.Image, h int, c color.RGBA) int {
	b := img.Bounds()
	rows := 0
	for y := b.Min.Y; y < min(b.Max.Y, b.Min.Y+h); y++ {
		if 2*countColor(img, image.Rect(b.Min.X, y, b.Max.X, y+1), c) >= b.Dx() {
			rows++
		}
	}
	return rows
}

func TestHTMLInBrowser(t *testing.T) {
	bin := chromium(t)
	safe, unsafe := cssColor(t, "safe"), cssColor(t, "unsafe")
	tableHead := color.RGBA{0x24, 0x29, 0x2f, 255} // thead th background in report.css
	if !bytes.Contains(mustReadCSS(t), []byte("thead th { background: #24292f;")) {
		t.Fatal("report.css no longer gives table headers #24292f; update this test")
	}
	for _, tc := range []struct {
		fixture   string
		word      string
		banner    color.RGBA // must fill the top of the page
		notBanner color.RGBA // must not
	}{
		{"audit-unsafe", "UNSAFE", unsafe, safe},
		{"audit-safe", "SAFE", safe, unsafe},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			r := loadRun(t, tc.fixture)
			dir := t.TempDir()
			page := filepath.Join(dir, "report.html")
			if err := os.WriteFile(page, render(t, r, "html"), 0o644); err != nil {
				t.Fatal(err)
			}

			// The DOM Chromium built: the verdict and the node table with
			// every node are there.
			dom := string(headless(t, bin, page, "--dump-dom"))
			if !strings.Contains(dom, `<div class="word">`+tc.word+`</div>`) {
				t.Errorf("the rendered DOM has no %s verdict banner", tc.word)
			}
			table := dom[max(0, strings.Index(dom, `<table class="nodes">`)):]
			table = table[:max(0, strings.Index(table, "</table>"))]
			if table == "" {
				t.Fatalf("the rendered DOM has no node table")
			}
			for _, n := range r.Nodes {
				if !strings.Contains(table, "<code>"+n.Addr+"</code>") {
					t.Errorf("node %s is not in the rendered table", n.Addr)
				}
			}

			// The screenshot: a valid 1280x2000 PNG whose top carries the
			// verdict banner's color (and not the opposite verdict's), and
			// whose first 2000 pixels reach the node table's header row.
			shot := filepath.Join(dir, "report.png")
			headless(t, bin, page, "--screenshot="+shot, "--window-size=1280,2000")
			data, err := os.ReadFile(shot)
			if err != nil {
				t.Fatal(err)
			}
			if d := os.Getenv("LOCKAUDIT_SCREENSHOT_DIR"); d != "" {
				_ = os.WriteFile(filepath.Join(d, tc.fixture+".png"), data, 0o644)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("screenshot is not a PNG: %v", err)
			}
			if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 2000 {
				t.Fatalf("screenshot is %v, want 1280x2000", b.Size())
			}
			// A banner row is one at least half covered by the color.
			if n := bannerRows(img, 400, tc.banner); n < 60 {
				t.Errorf("the top 400 px have %d rows half covered by the %s banner color %v, want a banner (>= 60 rows)", n, tc.word, tc.banner)
			}
			if n := bannerRows(img, 400, tc.notBanner); n > 0 {
				t.Errorf("a %s report has %d banner rows of the opposite verdict's color %v", tc.word, n, tc.notBanner)
			}
			if n := countColor(img, img.Bounds(), tableHead); n < 15000 {
				t.Errorf("no node table header visible in the first 2000 pixels (%d pixels of %v)", n, tableHead)
			}
			t.Logf("%s: %d banner rows at the top, %d table-header pixels", tc.fixture, bannerRows(img, 400, tc.banner), countColor(img, img.Bounds(), tableHead))
		})
	}
}

func mustReadCSS(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("templates", "report.css"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The pixel check must be able to fail: a blank page has no banner.
func TestCountColorCanFail(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 100, 100))
	red := color.RGBA{0xb4, 0x23, 0x18, 255}
	if n := countColor(img, img.Bounds(), red); n != 0 {
		t.Fatalf("blank image: %d red pixels", n)
	}
	for x := 0; x < 10; x++ {
		img.Set(x, 5, color.RGBA{0xb6, 0x21, 0x18, 255}) // within tolerance
	}
	img.Set(50, 50, color.RGBA{0xc4, 0x23, 0x18, 255}) // not
	if n := countColor(img, img.Bounds(), red); n != 10 {
		t.Fatalf("want 10 near-red pixels, got %d", n)
	}
	if n := bannerRows(img, 100, red); n != 0 {
		t.Fatalf("10 red pixels in a 100-wide row make no banner row, got %d", n)
	}
	for x := 0; x < 60; x++ {
		img.Set(x, 7, red)
	}
	if n := bannerRows(img, 100, red); n != 1 {
		t.Fatalf("a row 60%% red is a banner row, got %d", n)
	}
}
