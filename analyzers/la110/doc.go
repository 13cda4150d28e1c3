// Package la110 defines an Analyzer that reports a write to a protected
// resource, while a lock is held, that carries no fencing token (rule
// LA110, unfenced-write).
//
// A function holds a lock from a lock acquire (a SET NX/SETNX on a lock key,
// a Lua acquire, or a library acquire such as redsync Lock or redislock
// Obtain) to the first release that certainly runs after it, in source
// order; a deferred release covers the rest of the function (region.Regions).
// Writers are database/sql Exec/ExecContext on *DB, *Tx, *Conn and *Stmt,
// pgx v5 Exec on *Conn, Tx, *pgxpool.Pool/Conn/Tx, any interface method
// Exec/ExecContext returning (sql.Result, error) or (pgconn.CommandTag,
// error) (sqlc's DBTX), and the writers added with -LA110.writers (a
// comma-separated list of fully qualified names such as
// (*database/sql.DB).ExecContext or example.com/repo.SaveInvoice; shared
// with LA111). A write is reported when the function draws no fence at all,
// or when none of its arguments derives from the fence (fence.Info.Taint:
// through locals, Result/Val, the transaction's results, struct fields
// assigned a fence anywhere in the package, helpers that return one).
// Fence counters are recognised by -LA110.fence-key-pattern (the shared
// setting), by sharing a MULTI with the acquire, or by reaching a write. An
// argument whose name says fence (a parameter fence, a field l.Fence) is
// taken to carry one drawn elsewhere.
package la110
