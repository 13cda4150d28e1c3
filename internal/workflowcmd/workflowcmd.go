// Package workflowcmd parses GitHub Actions workflow commands as the
// runner does, so tests can check that what lockaudit prints for GitHub
// (the github format, the Action's steps) means what it should. It is the
// runner's reading of a line (actions/runner,
// src/Runner.Common/ActionCommand.cs, TryParseV2), not a second writer.
package workflowcmd

import "strings"

// Command is one parsed line: "::name key=value,key=value::data".
type Command struct {
	Name  string
	Props map[string]string
	Data  string
}

// Parse reads a line as the runner does: after leading spaces, "::", the
// command name up to a space or the next "::", its properties split on
// "," and each on its first "=" (empty keys or values dropped), then the
// data. Properties unescape %0D, %0A, %3A, %2C and %25, in that order, and
// the data %0D, %0A and %25. ok is false for a line that is no command.
func Parse(line string) (c Command, ok bool) {
	line = strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(line, "::") {
		return Command{}, false
	}
	end := strings.Index(line[2:], "::")
	if end < 0 {
		return Command{}, false
	}
	info := line[2 : 2+end]
	c = Command{Name: info, Props: map[string]string{}}
	if sp := strings.IndexByte(info, ' '); sp >= 0 {
		c.Name = info[:sp]
		for _, p := range strings.Split(strings.TrimSpace(info[sp+1:]), ",") {
			if k, v, found := strings.Cut(p, "="); found && k != "" && v != "" {
				c.Props[k] = unescape(v, "%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
			}
		}
	}
	c.Data = unescape(line[2+end+2:], "%0D", "\r", "%0A", "\n", "%25", "%")
	return c, true
}

// All parses every command line of out, in order.
func All(out string) []Command {
	var cs []Command
	for _, l := range strings.Split(out, "\n") {
		if c, ok := Parse(strings.TrimSuffix(l, "\r")); ok {
			cs = append(cs, c)
		}
	}
	return cs
}

// unescape replaces each pair in order, one pass each, as the runner's
// String.Replace calls do.
func unescape(s string, pairs ...string) string {
	for i := 0; i < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	return s
}
