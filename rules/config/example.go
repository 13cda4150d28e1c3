package config

// Example is what `lockaudit config init` writes: every key, commented.
// A test parses it, so it cannot drift from the schema.
const Example = `# lockaudit configuration. lockaudit finds this file by walking up from the
# working directory; -config FILE names another. Flags override it.
version: 1

# The server versions your fleet runs (or will run after the upgrade).
# LA112 reports a command that any of them lacks; preflight checks each.
target: [valkey-9.0]

# Rules: on, off, or a severity (error, warning, info) to override the default.
rules:
  LA110: warning
  # LA111: off

# Regular expressions for lock-key text (LA103, LA114) and for the keys
# lockaudit scan reports (LA211, LA212). Default: "lock" as a word part
# (lock:, :lock, -lock, _lock).
lock_keys:
  - '(^|[^a-z0-9])lock([^a-z0-9]|$)'
  - '^mutex:'

# Regular expressions for the keys of fencing counters (LA109, LA110).
fence_keys:
  - '(^|[^a-z0-9])(fence|token)([^a-z0-9]|$)'

# Regular expressions for SQL columns that hold the fence (LA111).
fence_columns:
  - 'fence'
  - 'token'

# Writes to the protected resource (LA110, LA111), fully qualified. These add
# to the defaults (database/sql Exec/ExecContext, pgx Exec).
writers:
  - '(*database/sql.DB).ExecContext'
  - '(github.com/jackc/pgx/v5.Tx).Exec'
  # - 'example.com/orders/repo.SaveInvoice'

# Defaults for lockaudit probe and audit. The password is never read from
# this file: set LOCKAUDIT_PASSWORD or password_file.
probe:
  addrs: [127.0.0.1:6379]
  # sentinel: [10.0.0.1:26379, 10.0.0.2:26379]
  # master: mymaster
  # user: probe
  # password_file: /run/secrets/valkey-probe
  tls:
    enabled: false
    # ca: /etc/ssl/valkey-ca.pem
    # cert: /etc/ssl/probe.pem
    # key: /etc/ssl/probe-key.pem
    # server_name: valkey.internal
  timeout: 3s
  deadline: 30s
  parallel: 16
  uses: [delifeq, ifeq]
  skew: 50ms

# lockaudit scan (read-only): lock keys (lock_keys above) with no TTL (LA211)
# or a TTL longer than max_lease (LA212). rate and count bound the load on
# each node: keys per second (0: no limit) and SCAN's COUNT.
scan:
  max_lease: 10m
  rate: 50000
  count: 1000

# lockaudit conform (it writes, only with -write-scratch-key): its scratch
# keys start with prefix and expire after ttl even if it is killed.
conform:
  prefix: 'lockaudit:conform:'
  ttl: 30s
`
