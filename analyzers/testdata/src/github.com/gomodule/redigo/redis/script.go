package redis

import "context"

// Script encapsulates the source, hash and key count for a Lua script.
type Script struct {
	keyCount int
	src      string
	hash     string
}

// NewScript returns a new script object. If keyCount is greater than or equal
// to zero, then the count is automatically inserted in the EVAL command
// argument list. If keyCount is less than zero, then the application supplies
// the count as the first value in the keysAndArgs argument to the Do, Send and
// SendHash methods.
func NewScript(keyCount int, src string) *Script {
	return &Script{keyCount: keyCount, src: src}
}

func (s *Script) Hash() string { return s.hash }

func (s *Script) DoContext(ctx context.Context, c Conn, keysAndArgs ...interface{}) (interface{}, error) {
	return DoContext(c, ctx, "EVALSHA", keysAndArgs...)
}

func (s *Script) Do(c Conn, keysAndArgs ...interface{}) (interface{}, error) {
	return c.Do("EVALSHA", keysAndArgs...)
}

func (s *Script) SendHash(c Conn, keysAndArgs ...interface{}) error {
	return c.Send("EVALSHA", keysAndArgs...)
}

func (s *Script) Send(c Conn, keysAndArgs ...interface{}) error {
	return c.Send("EVAL", keysAndArgs...)
}

func (s *Script) Load(c Conn) error {
	_, err := c.Do("SCRIPT", "LOAD", s.src)
	return err
}
