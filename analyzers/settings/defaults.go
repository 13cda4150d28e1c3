package settings

import "github.com/lockaudit/lockaudit/analyzers/internal/flow"

// The analyzers' built-in settings, for what shows them to users (config
// init writes them into a new .lockaudit.yaml, config check prints them).
var (
	DefaultLockKeys     = flow.DefaultLockKeys     // lock_keys
	DefaultFenceKeys    = flow.DefaultFenceKeys    // fence_keys
	DefaultFenceColumns = flow.DefaultFenceColumns // fence_columns
	DefaultWriters      = flow.DefaultWriters      // writers, always known; the file's are added
)
