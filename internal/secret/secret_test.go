package secret

import "testing"

func TestInAddrAndValue(t *testing.T) {
	for _, tt := range []struct {
		s           string
		addr, value bool
	}{
		{"user:hunter2@10.0.0.1:6379", true, true},
		{"hunter2@10.0.0.1:6379", true, true},
		{"redis://10.0.0.1:6379", true, true},
		{"rediss://:hunter2@cache.internal:6380/0", true, true},
		{"valkey://user:hunter2@[::1]:6379", true, true},
		{"VALKEYS://h:1", true, true},
		{"https://user:pw@example.com/x", true, true},
		{"10.0.0.1:6379", false, false},
		{"[::1]:6379", false, false},
		{"cache.internal:6380", false, false},
		// Values that are no address and hold no credentials.
		{`^lock:[^@]+$`, true, false},
		{`(*database/sql.DB).ExecContext`, false, false},
		{"https://docs.example.com/locks", true, false},
		{"valkey-9.0", false, false},
	} {
		if got := InAddr(tt.s); got != tt.addr {
			t.Errorf("InAddr(%q) = %t, want %t", tt.s, got, tt.addr)
		}
		if got := InValue(tt.s); got != tt.value {
			t.Errorf("InValue(%q) = %t, want %t", tt.s, got, tt.value)
		}
	}
}

func TestRedactor(t *testing.T) {
	r := Redactor("hunter2-secret", "", "ab", "file-pw")
	for in, want := range map[string]string{
		"LOCKAUDIT_PASSWORD=hunter2-secret\x00HOME=/root": "LOCKAUDIT_PASSWORD=[redacted]\x00HOME=/root",
		"auth hunter2-secret and file-pw, twice: file-pw": "auth [redacted] and [redacted], twice: [redacted]",
		"ab is too short to redact":                       "ab is too short to redact",
	} {
		if got := r(in); got != want {
			t.Errorf("Redactor(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Redactor("", "x")("x marks"); got != "x marks" {
		t.Errorf("no secret long enough: %q", got)
	}
}
