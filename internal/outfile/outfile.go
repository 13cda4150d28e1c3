// Package outfile is the one way lockaudit writes a file: reports (-o),
// baselines, the config file and the source files -fix edits.
//
// A file is replaced atomically: the data goes to a temporary file in the
// same folder, is synced to disk and renamed over the target, so a reader
// (or a crash, or Ctrl-C) sees the old file or the new one, never half of
// one. Only regular files are replaced: a symbolic link, a device such as
// /dev/null, a named pipe, a socket or a folder at the path is refused, as
// is a read-only file — renaming over them would silently turn a link or a
// device into a plain file, or defeat a write protection (as root, every
// file is writable by the permission check alone, so the mode decides).
package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// errReadOnlyFS is the error of a write on a read-only file system.
var errReadOnlyFS = syscall.EROFS

// newMode is the mode of a file that did not exist before; a replaced file
// keeps its own.
const newMode = 0o644

// Check reports whether Write could write path now, without writing it: the
// folder exists and takes new files, and whatever is at path is a writable
// regular file. Commands call it before long work, so a bad output path
// fails at once.
func Check(path string) error {
	if _, err := target(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".check-*")
	if err != nil {
		return folderError(dir, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// Write replaces the regular file at path (or creates it) with data,
// atomically. A symbolic link at path is refused, not followed.
func Write(path string, data []byte) error {
	mode, err := target(path)
	if err != nil {
		return err
	}
	return replace(path, data, mode)
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
		return newMode, nil
	}
	if err != nil {
		return 0, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		to, _ := os.Readlink(path)
		return 0, fmt.Errorf("%s is a symbolic link (to %s): not replacing it; name the file itself", path, to)
	}
	if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is %s, not a regular file: not writing there", path, kind(fi.Mode()))
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

// kind names a non-regular file for an error message.
func kind(m fs.FileMode) string {
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

// replace writes data to a temporary file next to path, syncs it, gives it
// mode and renames it over path; the folder is synced after the rename so
// the new name survives a crash.
func replace(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".lockaudit-*")
	if err != nil {
		return folderError(dir, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	done = true
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: not every file system syncs folders
		d.Close()
	}
	return nil
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
