package radix

import "github.com/mediocregopher/radix/v3"

func conflicts(c radix.Client, key, token string) {
	c.Do(radix.Cmd(nil, "SET", key, token, "NX", "IFEQ", token)) // want `SET with both IFEQ and NX`
	c.Do(radix.Cmd(nil, "SET", key, token, "NX", "PX", "1000"))
}
