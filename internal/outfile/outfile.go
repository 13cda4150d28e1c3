// Package outfile is the one way lockaudit writes a file: reports (-o),
// baselines, the config file and the source files -fix edits.
//
// A file is replaced atomically: the data goes to a temporary file in the
// same folder, is synced to disk and renamed over the target, so a reader
// (or a crash, or Ctrl-C) sees the old file or the new one, never half of
// one. A new file gets 0666 less the umask, as any file a program creates
// (0644 under umask 022, 0600 under 077); a replaced file keeps its mode.
// WriteAll writes several files all or none. Only regular files are replaced: a symbolic link, a device such as
// /dev/null, a named pipe, a socket or a folder at the path is refused, as
// is a read-only file — renaming over them would silently turn a link or a
// device into a plain file, or defeat a write protection (as root, every
// file is writable by the permission check alone, so the mode decides).
package outfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// errReadOnlyFS is the error of a write on a read-only file system.
var errReadOnlyFS = syscall.EROFS

// newMode is the mode a new file is created with; the kernel takes the
// umask from it. A replaced file keeps its own mode.
const newMode = 0o666

// Check reports whether Write could write path now, without writing it: the
// folder exists and takes new files, and whatever is at path is a writable
// regular file. Commands call it before long work, so a bad output path
// fails at once.
func Check(path string) error {
	if _, err := target(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := createTemp(dir, "."+filepath.Base(path)+".check-", 0o600)
	if err != nil {
		return folderError(dir, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// Write replaces the regular file at path (or creates it) with data,
// atomically. A symbolic link at path is refused, not followed.
func Write(path string, data []byte) error {
	return WriteAll([]File{{path, data}})
}

// File is one file for WriteAll.
type File struct {
	Path string
	Data []byte
}

// WriteAll writes every file or none: each path is checked (as Write
// does), then each file's data is written and synced to a temporary file
// beside it, and only when all of them are staged are they renamed into
// place. A failure before the renames (a path that cannot be written, a
// full disk) leaves every target as it was and no temporary file. A
// rename is a metadata operation in a folder already written to; should
// one still fail, the error says which files were already replaced.
func WriteAll(files []File) error {
	seen := map[string]bool{}
	modes := make([]fs.FileMode, len(files))
	for i, f := range files {
		if seen[f.Path] {
			return fmt.Errorf("%s is named twice", f.Path)
		}
		seen[f.Path] = true
		mode, err := target(f.Path)
		if err != nil {
			return err
		}
		modes[i] = mode
	}
	staged := make([]string, 0, len(files))
	defer func() {
		for _, tmp := range staged {
			os.Remove(tmp) // after a successful rename, no such file
		}
	}()
	for i, f := range files {
		tmp, err := stage(f.Path, f.Data, modes[i])
		if err != nil {
			return err
		}
		staged = append(staged, tmp)
	}
	var done []string
	for i, f := range files {
		if err := os.Rename(staged[i], f.Path); err != nil {
			if len(done) > 0 {
				return fmt.Errorf("writing %s: %w (already replaced: %v)", f.Path, err, done)
			}
			return fmt.Errorf("writing %s: %w", f.Path, err)
		}
		done = append(done, f.Path)
	}
	for _, dir := range folders(files) {
		if d, err := os.Open(dir); err == nil {
			d.Sync() // best effort: not every file system syncs folders
			d.Close()
		}
	}
	return nil
}

// folders lists the folders of files, once each.
func folders(files []File) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		if d := filepath.Dir(f.Path); !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// WriteTarget writes the file path names, following symbolic links to the
// real file and replacing that one, so the link stays a link (-fix edits a
// linked source file in place). The real file must be a writable regular
// file.
func WriteTarget(path string, data []byte) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	return Write(real, data)
}

// target checks what is at path and returns the mode the new file gets.
func target(path string) (fs.FileMode, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		dir := filepath.Dir(path)
		if di, err := os.Stat(dir); err != nil || !di.IsDir() {
			return 0, fmt.Errorf("%s: the folder %s does not exist", path, dir)
		}
		return 0, nil // created with newMode, less the umask
	}
	if err != nil {
		return 0, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		to, _ := os.Readlink(path)
		return 0, fmt.Errorf("%s is a symbolic link (to %s): not replacing it; name the file itself", path, to)
	}
	if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is %s, not a regular file: not writing there", path, Kind(fi.Mode()))
	}
	if fi.Mode().Perm()&0o222 == 0 {
		return 0, fmt.Errorf("%s is read-only (mode %v): not replacing it", path, fi.Mode().Perm())
	}
	// Opening for writing without truncating changes nothing, and asks
	// the operating system (file permissions, a read-only file system).
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, errReadOnlyFS) {
			return 0, fmt.Errorf("%s is read-only for this user: not replacing it", path)
		}
		return 0, err
	}
	f.Close()
	return fi.Mode().Perm(), nil
}

// Kind names what a path that is not a regular file is, for an error
// message: "a folder", "a device", "a named pipe (FIFO)", "a socket".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file (" + m.Type().String() + ")"
}

// stage writes data to a new temporary file next to path and syncs it.
// mode 0 means a new file: it is created with newMode and the kernel
// applies the umask; otherwise the temporary file gets mode (the mode of
// the file it will replace). It returns the temporary file's name.
func stage(path string, data []byte, mode fs.FileMode) (string, error) {
	dir := filepath.Dir(path)
	create := fs.FileMode(newMode)
	if mode != 0 {
		create = 0o600 // then set to mode, which the umask must not change
	}
	tmp, err := createTemp(dir, "."+filepath.Base(path)+".lockaudit-", create)
	if err != nil {
		return "", folderError(dir, err)
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	if mode != 0 {
		if err := tmp.Chmod(mode); err != nil {
			return "", fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err := tmp.Sync(); err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	ok = true
	return tmp.Name(), nil
}

// createTemp creates a new file named prefix plus random characters in
// dir with perm (less the umask, as the kernel applies it); os.CreateTemp
// always uses 0600.
func createTemp(dir, prefix string, perm fs.FileMode) (*os.File, error) {
	for range 100 {
		var b [6]byte
		rand.Read(b[:])
		f, err := os.OpenFile(filepath.Join(dir, prefix+hex.EncodeToString(b[:])), os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("cannot create a temporary file in %s", dir)
}

func folderError(dir string, err error) error {
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, errReadOnlyFS) {
		return fmt.Errorf("cannot create files in the folder %s: it is read-only for this user", dir)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the folder %s does not exist", dir)
	}
	return fmt.Errorf("cannot create files in the folder %s: %w", dir, err)
}
