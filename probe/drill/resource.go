package drill

import (
	"database/sql"
	"path/filepath"
	"strconv"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver: the drill's fenced resource
)

// resource is the protected resource: one SQLite row per job that accepts
// a write only with a fence above the last one it stored — the check
// LOCK-PATTERN.md asks of every resource a lock guards (strict <: a
// failover can issue a number twice).
type resource struct {
	db *sql.DB
}

// fencedUpdate is the one write the resource accepts.
const fencedUpdate = "UPDATE jobs SET last_fence = ?1, writer = ?2 WHERE id = ?3 AND last_fence < ?1"

func openResource(dir string, job string, lastFence int64) (*resource, error) {
	db, err := sql.Open("sqlite", filepath.Join(dir, "resource.db"))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		"CREATE TABLE jobs (id TEXT PRIMARY KEY, last_fence INTEGER NOT NULL, writer TEXT NOT NULL)",
	} {
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, err
		}
	}
	if _, err := db.Exec("INSERT INTO jobs (id, last_fence, writer) VALUES (?1, ?2, 'history')", job, lastFence); err != nil {
		db.Close()
		return nil, err
	}
	return &resource{db: db}, nil
}

// write runs the fenced update as writer with fence, records it on t and
// says whether the resource accepted it.
func (r *resource) write(t *timeline, writer, job string, fence int64) (bool, error) {
	res, err := r.db.Exec(fencedUpdate, fence, writer, job)
	if err != nil {
		t.step(writer, "resource.db", "transport", err.Error())
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	reply := strconv.FormatInt(n, 10) + " row"
	if n != 1 {
		reply += "s"
	}
	t.record(writer, "resource.db", reply, fencedUpdate, strconv.FormatInt(fence, 10), writer, job)
	return n == 1, nil
}

func (r *resource) close() error { return r.db.Close() }
