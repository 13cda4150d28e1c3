package radix

import "github.com/mediocregopher/radix/v3"

func acquire(c radix.Client, token string) {
	c.Do(radix.Cmd(nil, "SET", "lock:a", token, "NX")) // want `SET NX without EX/PX/EXAT/PXAT`
	c.Do(radix.Cmd(nil, "SET", "lock:a", token, "NX", "EX", "30"))
}
