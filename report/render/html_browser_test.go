package render_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
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

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
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

// realReport is a stable real audit (cmd/lockaudit's report goldens): the
// bundled example against a 9.1 primary with a promotable 8.1 replica,
// with an engagement and notes.
const realReport = "../../cmd/lockaudit/testdata/report/mid-upgrade.json"

func loadReal(t *testing.T) *report.Run {
	t.Helper()
	return fixture.Read(t, realReport)
}

func keepShot(t *testing.T, name string, data []byte) {
	if d := os.Getenv("LOCKAUDIT_SCREENSHOT_DIR"); d != "" {
		if err := os.WriteFile(filepath.Join(d, name), data, 0o644); err != nil {
			t.Error(err)
		}
	}
}

func TestHTMLInBrowser(t *testing.T) {
	bin := chromium(t)
	safe, unsafe, info := cssColor(t, "safe"), cssColor(t, "unsafe"), cssColor(t, "info")
	tableHead := color.RGBA{0x24, 0x29, 0x2f, 255} // thead th background in report.css
	if !bytes.Contains(mustReadCSS(t), []byte("thead th { background: #24292f;")) {
		t.Fatal("report.css no longer gives table headers #24292f; update this test")
	}
	for _, tc := range []struct {
		name      string
		run       func(t *testing.T) *report.Run
		word      string
		banner    color.RGBA // must fill the banner's rows
		notBanner color.RGBA // must not
	}{
		{"audit-unsafe", func(t *testing.T) *report.Run { return fixture.Load(t, "audit-unsafe") }, "UNSAFE", unsafe, safe},
		{"audit-safe", func(t *testing.T) *report.Run { return fixture.Load(t, "audit-safe") }, "SAFE", safe, unsafe},
		{"real-mid-upgrade", loadReal, "UNSAFE", unsafe, safe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.run(t)
			dir := t.TempDir()
			page := filepath.Join(dir, "report.html")
			if err := os.WriteFile(page, rendered(t, r, "html"), 0o644); err != nil {
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

			// The screenshot: a valid 1280x2400 PNG that shows, below the
			// header and the contents, the verdict banner's color (and not
			// the opposite verdict's) and the node table's header row.
			shot := filepath.Join(dir, "report.png")
			headless(t, bin, page, "--screenshot="+shot, "--window-size=1280,2400")
			data, err := os.ReadFile(shot)
			if err != nil {
				t.Fatal(err)
			}
			keepShot(t, tc.name+".png", data)
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("screenshot is not a PNG: %v", err)
			}
			if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 2400 {
				t.Fatalf("screenshot is %v, want 1280x2400", b.Size())
			}
			// A banner row is one at least half covered by the color.
			if n := bannerRows(img, 1200, tc.banner); n < 60 {
				t.Errorf("the top 1200 px have %d rows half covered by the %s banner color %v, want a banner (>= 60 rows)", n, tc.word, tc.banner)
			}
			if n := bannerRows(img, 2400, tc.notBanner); n > 0 {
				t.Errorf("a %s report has %d banner rows of the opposite verdict's color %v", tc.word, n, tc.notBanner)
			}
			if tc.name == "real-mid-upgrade" {
				// The severity counts: 3 info server findings in info blue,
				// so the page shows the info color, and it is not red.
				if n := countColor(img, img.Bounds(), info); n < 50 {
					t.Errorf("%d pixels of the info color %v: the info count is not shown in its own color", n, info)
				}
			}
			t.Logf("%s: %d banner rows, %d table-header pixels, %d info-blue pixels", tc.name, bannerRows(img, 1200, tc.banner), countColor(img, img.Bounds(), tableHead), countColor(img, img.Bounds(), info))
		})
	}
}

// TestHTMLPrintLayout prints the real report (the bundled example audited
// against a fleet in mid-upgrade, with an engagement and notes) to PDF as
// a browser does (print media) and reads the pages back with poppler: at
// most 10 pages (issue 23); every page carries the running header (the
// client and the date) and "Page N of M"; the first page holds the title,
// the contents and the executive summary; the parts follow in the order of
// the contents, short parts sharing a page (no page but the last is near
// empty); the server table fits the page; the first pages and the
// topology page are rasterized (kept with LOCKAUDIT_SCREENSHOT_DIR) and
// must not be blank.
func TestHTMLPrintLayout(t *testing.T) {
	bin := chromium(t)
	pdftotext, pdftoppm, pdfinfo := popplerTool(t, "pdftotext"), popplerTool(t, "pdftoppm"), popplerTool(t, "pdfinfo")
	r := loadReal(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	out := rendered(t, r, "html")
	if err := os.WriteFile(page, out, 0o644); err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(dir, "report.pdf")
	headless(t, bin, page, "--print-to-pdf="+pdf, "--no-pdf-header-footer")
	data, err := os.ReadFile(pdf)
	if err != nil || !bytes.HasPrefix(data, []byte("%PDF-")) {
		t.Fatalf("no PDF (%v)", err)
	}
	keepShot(t, "report.pdf", data)
	info, err := exec.Command(pdfinfo, pdf).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)$`).FindSubmatch(info)
	if m == nil {
		t.Fatalf("pdfinfo gives no page count:\n%s", info)
	}
	count, _ := strconv.Atoi(string(m[1]))
	if count > 10 {
		t.Errorf("the example's report prints on %d pages, want at most 10", count)
	}
	txt, err := exec.Command(pdftotext, "-layout", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	pages := strings.Split(strings.TrimRight(string(txt), "\f"), "\f")
	if len(pages) != count {
		t.Fatalf("pdftotext read %d pages, pdfinfo says %d", len(pages), count)
	}
	lines := func(p string) []string {
		var out []string
		for _, l := range strings.Split(p, "\n") {
			if s := strings.TrimSpace(l); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	head := "ACME Corp · 2 June 2025, 09:00 UTC" // the engagement's client and the run's date
	for i, p := range pages {
		ls := lines(p)
		if len(ls) == 0 || ls[0] != head {
			t.Errorf("page %d does not start with the running header %q", i+1, head)
		}
		if want := fmt.Sprintf("Page %d of %d", i+1, count); len(ls) == 0 || ls[len(ls)-1] != want {
			t.Errorf("page %d does not end with %q", i+1, want)
		}
		if i < len(pages)-1 && len(ls) < 20 {
			t.Errorf("page %d is near empty (%d lines):\n%s", i+1, len(ls), p)
		}
	}
	first := strings.Join(lines(pages[0]), "\n")
	for _, want := range []string{"Lock audit: example shop", "Contents", "Executive summary"} {
		if !strings.Contains(first, want) {
			t.Errorf("page 1 lacks %q:\n%s", want, pages[0])
		}
	}
	// The parts, in the order of the contents of the HTML itself: each
	// title is a line of its own on a page at or after the one before.
	titles := regexp.MustCompile(`<li><a href="#[^"]+">([^<]+)</a></li>`).FindAllStringSubmatch(string(out), -1)
	if len(titles) < 10 {
		t.Fatalf("the contents list %d parts", len(titles))
	}
	starts := map[string]int{}
	last := 1
	for _, m := range titles {
		title := html.UnescapeString(m[1])
		n := 0
		for i := last - 1; i < len(pages) && n == 0; i++ {
			for _, l := range lines(pages[i]) {
				if l == title && !(i == 0 && strings.Count(first, title) < 2) {
					n = i + 1
					break
				}
			}
		}
		if n == 0 {
			t.Errorf("no page at or after %d has the part %q", last, title)
			continue
		}
		starts[title], last = n, n
	}
	t.Logf("%d pages; parts on pages %v", len(pages), starts)

	// The server table fits the printed page: each server's row starts
	// with its whole address and its role, and the column titles are not
	// split (a fixed screen layout broke both across lines).
	topo, ok := starts["Topology and servers"]
	if !ok {
		t.Fatal("no page has the topology")
	}
	servers := strings.Join(pages[topo-1:min(topo+1, len(pages))], "\n") // the table may follow on the next page
	for _, n := range r.Nodes {
		row := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(n.Addr) + `\s+` + n.Role + `\b`)
		if !row.MatchString(servers) {
			t.Errorf("printed server table: no row starts with %s %s:\n%s", n.Addr, n.Role, servers)
		}
	}
	if !regexp.MustCompile(`(?m)^\s*Address\s+Role\s+Promotable\s+Server\s+Lua\s+DELIFEQ\s+DELEX\b`).MatchString(servers) {
		t.Errorf("printed server table: the column titles are split:\n%s", servers)
	}

	// The first pages as images: the contents page, the summary.
	prefix := filepath.Join(dir, "page")
	if err := exec.Command(pdftoppm, "-png", "-r", "60", "-f", "1", "-l", "4", pdf, prefix).Run(); err != nil {
		t.Fatalf("pdftoppm: %v", err)
	}
	// And the page of the topology and the server table.
	if err := exec.Command(pdftoppm, "-png", "-r", "80", "-f", strconv.Itoa(topo), "-l", strconv.Itoa(topo), pdf, filepath.Join(dir, "topology")).Run(); err != nil {
		t.Fatalf("pdftoppm: %v", err)
	}
	shots, _ := filepath.Glob(prefix + "*.png")
	if len(shots) != 4 {
		t.Fatalf("pdftoppm made %d images, want 4", len(shots))
	}
	topoShot, _ := filepath.Glob(filepath.Join(dir, "topology*.png"))
	shots = append(shots, topoShot...)
	for _, s := range shots {
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		keepShot(t, "print-"+filepath.Base(s), data)
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		white := countColor(img, img.Bounds(), color.RGBA{255, 255, 255, 255})
		if total := img.Bounds().Dx() * img.Bounds().Dy(); white > total*99/100 {
			t.Errorf("%s is blank", filepath.Base(s))
		}
	}
}

// popplerTool finds a poppler-utils program, as chromium does Chromium.
func popplerTool(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if os.Getenv("LOCKAUDIT_REQUIRE_BROWSER") == "1" {
		t.Fatalf("LOCKAUDIT_REQUIRE_BROWSER=1 but %s is not installed (apt-get install -y poppler-utils)", name)
	}
	t.Skipf("%s not found (apt-get install -y poppler-utils)", name)
	return ""
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
