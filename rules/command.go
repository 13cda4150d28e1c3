package rules

import (
	"fmt"
	"strings"
)

// Command is a server command (family) that lock code can rely on. It is
// the one enumeration of them: the values of probe -uses and of probe.uses
// in .lockaudit.yaml, uses[].command in the JSON report, what analyzers/uses
// finds in the code, and what each verdict judges. Its zero value is no
// command.
type Command uint8

const (
	UseDELIFEQ Command = iota + 1 // DELIFEQ release
	UseDELEX                      // DELEX release
	UseIFEQ                       // SET IFEQ extend
	UseLua                        // EVAL, FCALL, script objects, lock libraries that run Lua
)

// Path is one way lock steps reach the server, judged by one verdict: the
// native release, the native extend, or Lua. Its zero value is the native
// release.
type Path uint8

const (
	NativeRelease Path = iota
	NativeExtend
	LuaScripts
)

// commandTable and pathTable are the only places the names are spelled.
var commandTable = [...]struct {
	name    string
	title   string  // as messages name it
	path    Path    // the verdict that judges it
	feature Feature // the server release that added it ("" for Lua)
}{
	UseDELIFEQ: {"delifeq", "DELIFEQ", NativeRelease, DELIFEQ},
	UseDELEX:   {"delex", "DELEX", NativeRelease, DELEX},
	UseIFEQ:    {"ifeq", "SET IFEQ", NativeExtend, SetIFEQ},
	UseLua:     {"lua", "Lua", LuaScripts, ""},
}

var pathTable = [...]struct{ name, title string }{
	NativeRelease: {"native_release", "Native release"},
	NativeExtend:  {"native_extend", "Native extend"},
	LuaScripts:    {"lua", "Lua scripts"},
}

// Commands lists every command in its order (release, extend, Lua).
func Commands() []Command { return []Command{UseDELIFEQ, UseDELEX, UseIFEQ, UseLua} }

// Valid reports whether c is one of Commands.
func (c Command) Valid() bool { return c >= UseDELIFEQ && c <= UseLua }

// String is the command's name: delifeq, delex, ifeq or lua.
func (c Command) String() string {
	if !c.Valid() {
		return fmt.Sprintf("command(%d)", uint8(c))
	}
	return commandTable[c].name
}

// Title is how messages name the command: DELIFEQ, DELEX, SET IFEQ, Lua.
func (c Command) Title() string {
	if !c.Valid() {
		return c.String()
	}
	return commandTable[c].title
}

// Path is the lock path the command serves.
func (c Command) Path() Path {
	if !c.Valid() {
		return NativeRelease
	}
	return commandTable[c].path
}

// Feature is the server feature the command needs, for the version table
// (Since, Supports, Requirement); ok is false for Lua, which no release
// added.
func (c Command) Feature() (Feature, bool) {
	if !c.Valid() || commandTable[c].feature == "" {
		return "", false
	}
	return commandTable[c].feature, true
}

// ParseCommand reads a command name, in any case.
func ParseCommand(s string) (Command, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, c := range Commands() {
		if commandTable[c].name == s {
			return c, nil
		}
	}
	return 0, fmt.Errorf("unknown command %q (want %s)", s, commandNames())
}

// ParseCommands reads a comma-separated list ("delifeq,ifeq,lua"), dropping
// repeats and keeping the order; an empty list is an error.
func ParseCommands(s string) ([]Command, error) {
	var out []Command
	for _, part := range strings.Split(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		c, err := ParseCommand(part)
		if err != nil {
			return nil, err
		}
		if !contains(out, c) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no command given (want a comma-separated list of %s)", commandNames())
	}
	return out, nil
}

func contains(cs []Command, c Command) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// commandNames is "delifeq, delex, ifeq or lua", for errors.
func commandNames() string {
	var names []string
	for _, c := range Commands() {
		names = append(names, c.String())
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func (c Command) MarshalText() ([]byte, error) { return marshalName(c) }

func (c *Command) UnmarshalText(b []byte) error { return unmarshalName(c, b, ParseCommand) }

// Paths lists the lock paths in verdict order.
func Paths() []Path { return []Path{NativeRelease, NativeExtend, LuaScripts} }

// Valid reports whether p is one of Paths.
func (p Path) Valid() bool { return p <= LuaScripts }

// String is the path's name, as the verdict's JSON keys spell it:
// native_release, native_extend, lua.
func (p Path) String() string {
	if !p.Valid() {
		return fmt.Sprintf("path(%d)", uint8(p))
	}
	return pathTable[p].name
}

// Title names the path for readers: Native release, Native extend, Lua
// scripts.
func (p Path) Title() string {
	if !p.Valid() {
		return p.String()
	}
	return pathTable[p].title
}

// Commands lists the commands the path serves.
func (p Path) Commands() []Command {
	var out []Command
	for _, c := range Commands() {
		if c.Path() == p {
			out = append(out, c)
		}
	}
	return out
}

// ParsePath reads a path name.
func ParsePath(s string) (Path, error) {
	for _, p := range Paths() {
		if pathTable[p].name == s {
			return p, nil
		}
	}
	var names []string
	for _, p := range Paths() {
		names = append(names, p.String())
	}
	return 0, fmt.Errorf("unknown lock path %q (want %s)", s, strings.Join(names, ", "))
}

func (p Path) MarshalText() ([]byte, error) { return marshalName(p) }

func (p *Path) UnmarshalText(b []byte) error { return unmarshalName(p, b, ParsePath) }

// marshalName and unmarshalName are the text form of Command and Path:
// their names.
func marshalName[T interface {
	Valid() bool
	String() string
}](v T) ([]byte, error) {
	if !v.Valid() {
		return nil, fmt.Errorf("invalid %s", v)
	}
	return []byte(v.String()), nil
}

func unmarshalName[T any](v *T, b []byte, parse func(string) (T, error)) error {
	x, err := parse(string(b))
	if err != nil {
		return err
	}
	*v = x
	return nil
}
