//go:build !unix

package lua

import "time"

func cpuTime() time.Duration { return 0 } // no CPU-time metric here
