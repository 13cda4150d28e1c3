package rules

import "fmt"

// Severity orders findings. The zero value is not a valid severity.
type Severity int

const (
	Info Severity = iota + 1
	Warning
	Error
)

var severityNames = map[Severity]string{Info: "info", Warning: "warning", Error: "error"}

// Valid reports whether s is one of Info, Warning and Error.
func (s Severity) Valid() bool { return s >= Info && s <= Error }

func (s Severity) String() string {
	if n, ok := severityNames[s]; ok {
		return n
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity accepts "info", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	for k, n := range severityNames {
		if n == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

func (s Severity) MarshalText() ([]byte, error) {
	if _, ok := severityNames[s]; !ok {
		return nil, fmt.Errorf("invalid severity %d", int(s))
	}
	return []byte(s.String()), nil
}

func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// SARIFLevel maps a severity to a SARIF result level.
func (s Severity) SARIFLevel() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	default:
		return "note"
	}
}
