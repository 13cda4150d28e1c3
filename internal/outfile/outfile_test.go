package outfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestWriteRefuses: every kind of path that is not a writable regular file
// is refused with an error that says what it is, and is left as it was.
func TestWriteRefuses(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.html")
	if err := os.WriteFile(real, []byte("old report"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.html")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.html")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "ro.html")
	if err := os.WriteFile(readOnly, []byte("old report"), 0o444); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "folder.html")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path, want string
	}{
		{os.DevNull, "/dev/null is a device, not a regular file"},
		{fifo, "fifo.html is a named pipe (FIFO), not a regular file"},
		{link, "link.html is a symbolic link (to " + real + "): not replacing it"},
		{readOnly, "ro.html is read-only (mode -r--r--r--): not replacing it"},
		{folder, "folder.html is a folder, not a regular file"},
		{filepath.Join(dir, "missing", "r.html"), "the folder " + filepath.Join(dir, "missing") + " does not exist"},
	} {
		before, _ := os.Lstat(tt.path)
		for name, fn := range map[string]func(string, []byte) error{"Write": Write, "Check": func(p string, _ []byte) error { return Check(p) }} {
			err := fn(tt.path, []byte("new report"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s(%s): %v, want an error with %q", name, tt.path, err, tt.want)
			}
		}
		if before == nil {
			continue
		}
		after, err := os.Lstat(tt.path)
		if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
			t.Errorf("%s changed: %v -> %v (%v)", tt.path, before.Mode(), after, err)
		}
	}
	for _, p := range []string{real, readOnly} {
		if data, _ := os.ReadFile(p); string(data) != "old report" {
			t.Errorf("%s was written: %q", p, data)
		}
	}
	if fi, err := os.Lstat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("/dev/null is no longer a device: %v %v", fi, err)
	}
	noTemporaries(t, dir, "real.html", "link.html", "fifo.html", "ro.html", "folder.html")
}

// TestWriteReplaces: a new file gets mode 0644 under umask 022, an
// existing one keeps its mode, and no temporary file is left.
func TestWriteReplaces(t *testing.T) {
	withUmask(t, 0o022)
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.json")
	if err := Check(fresh); err != nil {
		t.Fatalf("Check of a new file: %v", err)
	}
	noTemporaries(t, dir)
	if err := Write(fresh, []byte("one")); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old.json")
	os.WriteFile(old, []byte("before"), 0o600)
	if err := Write(old, []byte("after")); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]struct {
		data string
		mode fs.FileMode
	}{fresh: {"one", 0o644}, old: {"after", 0o600}} {
		data, _ := os.ReadFile(path)
		fi, _ := os.Stat(path)
		if string(data) != want.data || fi.Mode().Perm() != want.mode {
			t.Errorf("%s: %q mode %v, want %q mode %v", path, data, fi.Mode().Perm(), want.data, want.mode)
		}
	}
	noTemporaries(t, dir, "new.json", "old.json")
}

// TestWriteTarget: writing through a symbolic link edits the file it
// points to and keeps the link a link; a link to a read-only file is
// refused.
func TestWriteTarget(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.Mkdir(src, 0o755)
	real := filepath.Join(src, "lock.go")
	os.WriteFile(real, []byte("package old\n"), 0o640)
	link := filepath.Join(dir, "lock.go")
	if err := os.Symlink(filepath.Join("src", "lock.go"), link); err != nil {
		t.Fatal(err)
	}
	if err := WriteTarget(link, []byte("package fixed\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
	data, _ := os.ReadFile(real)
	fi, _ := os.Stat(real)
	if string(data) != "package fixed\n" || fi.Mode().Perm() != 0o640 {
		t.Errorf("the real file: %q mode %v", data, fi.Mode().Perm())
	}
	os.Chmod(real, 0o444)
	if err := WriteTarget(link, []byte("package again\n")); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("a link to a read-only file: %v", err)
	}
	noTemporaries(t, src, "lock.go")
}

// TestReadOnlyFolder: a folder that takes no new files is named (only
// meaningful for a user the permission bits bind; root passes them).
func TestReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only folders; the read-only file case covers root")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	os.Mkdir(dir, 0o555)
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	for _, err := range []error{Check(filepath.Join(dir, "r.html")), Write(filepath.Join(dir, "r.html"), nil)} {
		if err == nil || !strings.Contains(err.Error(), "cannot create files in the folder "+dir) {
			t.Errorf("read-only folder: %v", err)
		}
	}
}

func noTemporaries(t *testing.T, dir string, want ...string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s holds %v, want %v", dir, got, want)
	}
}

// withUmask sets the process's umask for one test (tests that call it do
// not run in parallel).
func withUmask(t *testing.T, mask int) {
	t.Helper()
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}

// TestWriteHonoursUmask: a new report is 0666 less the umask, as any
// file a program creates (it was 0644 whatever the umask: a report meant
// to stay private under umask 077 was readable by everyone); a replaced
// file keeps its mode whatever the umask.
func TestWriteHonoursUmask(t *testing.T) {
	for _, tc := range []struct {
		mask int
		want fs.FileMode
	}{{0o077, 0o600}, {0o027, 0o640}, {0o002, 0o664}} {
		withUmask(t, tc.mask)
		dir := t.TempDir()
		fresh := filepath.Join(dir, "report.html")
		if err := Write(fresh, []byte("new")); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(fresh); fi.Mode().Perm() != tc.want {
			t.Errorf("umask %03o: a new report has mode %v, want %v", tc.mask, fi.Mode().Perm(), tc.want)
		}
		old := filepath.Join(dir, "old.html")
		os.WriteFile(old, nil, 0o600)
		os.Chmod(old, 0o644)
		if err := Write(old, []byte("new")); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(old); fi.Mode().Perm() != 0o644 {
			t.Errorf("umask %03o: a replaced report has mode %v, want its own 0644", tc.mask, fi.Mode().Perm())
		}
	}
}

// TestWriteAllOrNone: when one of several files cannot be written, none
// is: the others keep their old content and no temporary file is left;
// when all can, all are replaced.
func TestWriteAllOrNone(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.sarif")
	os.WriteFile(a, []byte("old a"), 0o644)
	os.WriteFile(b, []byte("old b"), 0o644)
	ro := filepath.Join(dir, "ro.html")
	os.WriteFile(ro, []byte("old ro"), 0o444)
	err := WriteAll([]File{{a, []byte("new a")}, {b, []byte("new b")}, {ro, []byte("new ro")}})
	if err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("WriteAll with a read-only target: %v", err)
	}
	for p, want := range map[string]string{a: "old a", b: "old b", ro: "old ro"} {
		if data, _ := os.ReadFile(p); string(data) != want {
			t.Errorf("%s: %q, want %q (all or none)", p, data, want)
		}
	}
	noTemporaries(t, dir, "a.json", "b.sarif", "ro.html")

	// A failure while staging (a folder that vanished after the check
	// stands in for a full disk) also leaves the first file as it was.
	gone := filepath.Join(t.TempDir(), "gone")
	os.Mkdir(gone, 0o755)
	os.Remove(gone)
	if err := WriteAll([]File{{a, []byte("new a")}, {filepath.Join(gone, "c.md"), []byte("c")}}); err == nil {
		t.Fatal("WriteAll into a missing folder succeeded")
	}
	if data, _ := os.ReadFile(a); string(data) != "old a" {
		t.Errorf("a.json was replaced although another file failed: %q", data)
	}
	if err := WriteAll([]File{{a, []byte("new a")}, {b, []byte("new b")}}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{a: "new a", b: "new b"} {
		if data, _ := os.ReadFile(p); string(data) != want {
			t.Errorf("%s: %q, want %q", p, data, want)
		}
	}
	if err := WriteAll([]File{{a, nil}, {a, nil}}); err == nil || !strings.Contains(err.Error(), "named twice") {
		t.Errorf("the same file twice: %v", err)
	}
	noTemporaries(t, dir, "a.json", "b.sarif", "ro.html")
}
