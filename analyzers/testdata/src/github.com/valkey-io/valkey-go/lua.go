package valkey

import "context"

// LuaOption is a functional option for configuring Lua script behavior.
type LuaOption func(*Lua)

func WithLoadSHA1(enabled bool) LuaOption { return func(l *Lua) {} }

func NewLuaScript(script string, opts ...LuaOption) *Lua { return &Lua{script: script} }

func NewLuaScriptReadOnly(script string, opts ...LuaOption) *Lua { return &Lua{script: script} }

func NewLuaScriptNoSha(script string) *Lua { return &Lua{script: script} }

func NewLuaScriptReadOnlyNoSha(script string) *Lua { return &Lua{script: script} }

func NewLuaScriptRetryable(script string, opts ...LuaOption) *Lua { return &Lua{script: script} }

func NewLuaScriptNoShaRetryable(script string) *Lua { return &Lua{script: script} }

// Lua represents a valkey lua script.
type Lua struct {
	script string
}

func (s *Lua) Exec(ctx context.Context, c Client, keys, args []string) (resp ValkeyResult) {
	return c.Do(ctx, c.B().Evalsha().Sha1(s.script).Numkeys(int64(len(keys))).Key(keys...).Arg(args...).Build())
}

// LuaExec is a single execution unit of Lua.ExecMulti.
type LuaExec struct {
	Keys []string
	Args []string
}

func (s *Lua) ExecMulti(ctx context.Context, c Client, multi ...LuaExec) (resp []ValkeyResult) {
	return nil
}
