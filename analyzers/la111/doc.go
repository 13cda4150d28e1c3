// Package la111 defines an Analyzer that reports a fence check in SQL that
// uses <= instead of < (rule LA111, fence-check-not-strict).
//
// In a function that acquires a lock (see LA110), every constant string
// passed to a writer (the LA110 writers: database/sql and pgx Exec, sqlc's
// DBTX, -LA111.writers) is read as SQL: string literals and comments are
// skipped, quoted and qualified names are understood, casts ($1::bigint)
// are dropped. Reported: `col <= x` and the same thing reversed, `x >= col`,
// where col's name matches a fence-column pattern
// (-LA111.fence-column-pattern; default: the name contains "fence" or
// "token") and x is a bind parameter ($1, ?, :name, @name) or another
// column (an upsert's excluded.fence). A comparison with a literal
// (tokens <= 0) is not a fence check. SQL built at run time is not read.
package la111
