// Package radix: LA115 on radix v3.
package radix

import "github.com/mediocregopher/radix/v3"

func positives(c radix.Client) error {
	c.Do(radix.Cmd(nil, "WAIT", "1", "100"))        // want `^reply of WAIT is discarded`
	return c.Do(radix.Cmd(nil, "WAIT", "1", "100")) // want `^only the error of WAIT is checked`
}

func negatives(c radix.Client) (int, error) {
	var n int
	err := c.Do(radix.Cmd(&n, "WAIT", "1", "100"))
	return n, err
}
