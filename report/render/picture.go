package render

import (
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/report"
)

// picture is the topology drawing of the HTML report, laid out here so the
// template only copies coordinates. The layout depends only on the view's
// node order, which depends only on the Run's content.
type picture struct {
	Width, Height int
	Labels        []picLabel
	Boxes         []picBox
	Edges         []string // SVG path data, replica to its primary
}

type picLabel struct {
	X, Y  int
	Text  string
	Title string
}

type picBox struct {
	X, Y, W, H  int
	Class       string
	Addr        string // possibly shortened; Title has it all
	Title       string
	Line2       string
	Line3       string
	Line3Class  string
	Badges      []picBadge
	Placeholder bool
	Sentinel    bool
}

type picBadge struct {
	X, TX int // left edge, text center
	W     int
	Text  string
	Class string
}

const (
	picMargin   = 16
	picMaxWidth = 1180 // fits the 1280 px page with its padding
	boxW        = 250
	boxH        = 92
	sentinelH   = 52
	indentW     = 20
	stackGap    = 12
	colGap      = 20
	rowGap      = 34
	labelH      = 24
	badgeGap    = 4
)

// layout draws the groups both ways, replicas side by side under their
// primary and replicas stacked under it, and keeps the shorter picture
// (the side-by-side one on a tie): a few large groups read best as trees,
// many small ones (cluster shards) as columns.
func layout(v *view) *picture {
	tree, stacked := layoutWith(v, false), layoutWith(v, true)
	if stacked.Height < tree.Height {
		return stacked
	}
	return tree
}

func layoutWith(v *view, stacked bool) *picture {
	p := &picture{}
	y := picMargin
	right := 0
	if len(v.Sentinels) > 0 {
		p.Labels = append(p.Labels, picLabel{X: picMargin, Y: y + 15, Text: fmt.Sprintf("Sentinels (%d): they watch the primaries and decide failovers", len(v.Sentinels))})
		y += labelH
		x := picMargin
		for _, s := range v.Sentinels {
			if x+boxW > picMaxWidth && x > picMargin {
				x = picMargin
				y += sentinelH + stackGap
			}
			p.Boxes = append(p.Boxes, sentinelBox(s, x, y))
			right = max(right, x+boxW)
			x += boxW + colGap
		}
		y += sentinelH + rowGap
	}

	// Groups flow left to right and wrap, like words in a paragraph.
	x, rowH := picMargin, 0
	for _, g := range v.Groups {
		b := groupBlock(g, stacked)
		if x+b.W > picMaxWidth && x > picMargin {
			x = picMargin
			y += rowH + rowGap
			rowH = 0
		}
		p.Labels = append(p.Labels, picLabel{X: x, Y: y + 15, Text: shorten(g.Label, b.W/7), Title: g.Title})
		for _, bx := range b.Boxes {
			bx.X += x
			bx.Y += y
			p.Boxes = append(p.Boxes, bx)
		}
		for _, e := range b.Edges {
			var d strings.Builder
			for i, pt := range e {
				cmd := "L"
				if i == 0 {
					cmd = "M"
				}
				fmt.Fprintf(&d, "%s%d %d", cmd, pt[0]+x, pt[1]+y)
			}
			p.Edges = append(p.Edges, d.String())
		}
		right = max(right, x+b.W)
		rowH = max(rowH, b.H)
		x += b.W + colGap
	}
	if len(v.Groups) > 0 {
		y += rowH
	} else {
		y -= rowGap
	}
	p.Width = max(right+picMargin, 320)
	p.Height = y + picMargin
	return p
}

// block is one topology group laid out at the origin.
type block struct {
	W, H  int
	Boxes []picBox
	Edges [][][2]int // polylines
}

// perRow is how many boxes fit side by side under an indented root.
var perRow = max(1, (picMaxWidth-2*picMargin-indentW+colGap)/(boxW+colGap))

// groupBlock lays out a group: a root (its primary, or a placeholder for a
// missing one) with its replicas in rows beneath; chained replication as an
// indented stack; several unrelated nodes as a grid.
func groupBlock(g *topoGroup, stacked bool) block {
	var b block
	members := g.Members
	var root *picBox
	if g.Orphans {
		addr := g.Missing
		if addr == "" {
			addr = "primary unknown"
		}
		root = &picBox{W: boxW, H: boxH, Class: "node placeholder", Addr: shorten(addr, 30), Title: addr,
			Line2: "not in this run", Line3: "named as primary by the replicas below", Placeholder: true}
	} else if len(members) > 0 && (len(members) == 1 || members[1].Depth == 1) {
		box := nodeBox(members[0], 0, 0)
		root = &box
		members = members[1:]
	}
	maxDepth, roots := 0, 0
	for _, m := range members {
		maxDepth = max(maxDepth, m.Depth)
		if m.Depth == 0 {
			roots++
		}
	}
	switch {
	case root != nil && maxDepth <= 1 && roots == 0 && !stacked:
		return treeBlock(*root, members)
	case root == nil && maxDepth == 0:
		return gridBlock(members)
	}
	// Chained replication (or a malformed group): an indented stack.
	top, slot := labelH, 0
	pos := map[string][2]int{}
	if root != nil {
		root.X, root.Y = 0, top
		b.Boxes = append(b.Boxes, *root)
		if !root.Placeholder {
			pos[root.Title] = [2]int{0, top}
		}
		pos["\x00root"] = [2]int{0, top}
		slot++
	}
	for _, m := range members {
		bx := m.Depth * indentW // under a placeholder, depth counts it
		by := top + slot*(boxH+stackGap)
		b.Boxes = append(b.Boxes, nodeBox(m, bx, by))
		parent, ok := pos[m.Primary]
		if !ok && root != nil {
			parent, ok = pos["\x00root"]
		}
		if ok && parent[1] < by {
			px := parent[0] + indentW/2
			b.Edges = append(b.Edges, [][2]int{{px, parent[1] + boxH}, {px, by + boxH/2}, {bx, by + boxH/2}})
		}
		if _, dup := pos[m.Addr]; !dup {
			pos[m.Addr] = [2]int{bx, by}
		}
		b.W = max(b.W, bx+boxW)
		slot++
	}
	b.W = max(b.W, boxW)
	b.H = top + slot*(boxH+stackGap) - stackGap
	return b
}

// treeBlock puts the root on top and its replicas in rows beneath, joined
// by a trunk on the left and a bus above each row.
func treeBlock(root picBox, children []*nodeView) block {
	const treeGap = 30
	b := block{W: boxW}
	root.X, root.Y = 0, labelH
	b.Boxes = append(b.Boxes, root)
	b.H = labelH + boxH
	if len(children) == 0 {
		return b
	}
	k := min(len(children), perRow)
	trunk := indentW / 2
	for i := 0; i < len(children); i += k {
		row := children[i:min(i+k, len(children))]
		top := b.H + treeGap
		bus := top - treeGap/2
		last := 0
		for c, m := range row {
			x := indentW + c*(boxW+colGap)
			b.Boxes = append(b.Boxes, nodeBox(m, x, top))
			last = x + boxW/2
			b.Edges = append(b.Edges, [][2]int{{last, bus}, {last, top}})
		}
		b.Edges = append(b.Edges, [][2]int{{trunk, labelH + boxH}, {trunk, bus}, {last, bus}})
		b.H = top + boxH
	}
	b.W = max(b.W, indentW+k*(boxW+colGap)-colGap)
	return b
}

// gridBlock lays out nodes that are not linked to each other.
func gridBlock(nodes []*nodeView) block {
	b := block{W: boxW, H: labelH}
	k := max(1, min(len(nodes), perRow))
	for i, m := range nodes {
		x := (i % k) * (boxW + colGap)
		y := labelH + (i/k)*(boxH+stackGap)
		b.Boxes = append(b.Boxes, nodeBox(m, x, y))
		b.W = max(b.W, x+boxW)
		b.H = max(b.H, y+boxH)
	}
	return b
}

func sentinelBox(n *nodeView, x, y int) picBox {
	b := picBox{X: x, Y: y, W: boxW, H: sentinelH, Class: "node sentinel " + n.VersionCls, Addr: shorten(n.Addr, 30), Title: n.Addr,
		Line2: "sentinel · " + n.Label, Sentinel: true}
	if len(n.Errors) > 0 {
		b.Line2 = "sentinel · " + report.Plural(len(n.Errors), "error")
	}
	return b
}

func nodeBox(n *nodeView, x, y int) picBox {
	b := picBox{X: x, Y: y, W: boxW, H: boxH, Class: "node " + n.VersionCls + " prom-" + n.PromCls, Addr: shorten(n.Addr, 30), Title: n.Addr,
		Line2: report.RoleText(n.Role) + " · " + n.Label, Line3: n.Promotable, Line3Class: "prom-" + n.PromCls}
	if len(n.BoxMarks) > 0 {
		b.Line3 += " · " + strings.Join(n.BoxMarks, " · ")
	}
	if len(n.Errors) > 0 {
		b.Line3, b.Line3Class = "⚠ "+report.Plural(len(n.Errors), "error")+" · "+n.Promotable, "err"
	}
	b.Line3 = shorten(b.Line3, 36)
	bx := 10
	for _, c := range n.Caps {
		w := 6*len([]rune(c.Name)) + 20
		b.Badges = append(b.Badges, picBadge{X: bx, TX: bx + w/2, W: w, Text: c.Glyph + " " + c.Name, Class: "cap " + c.Class})
		bx += w + badgeGap
	}
	return b
}

// shorten cuts s to n runes with an ellipsis; the full text stays in a
// tooltip.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 2 {
		return s
	}
	return string(r[:n-1]) + "…"
}
