// Package scripts keeps a lock's Lua in //go:embed files and imports no
// client: the package that runs them reads their text through the
// layer's Embedded fact.
package scripts

import _ "embed"

var (
	//go:embed refresh.lua
	Refresh string

	//go:embed take.lua
	Take string

	//go:embed limit.lua
	Limit string

	//go:embed cad.lua
	CompareDel string
)
