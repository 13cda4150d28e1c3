package resolve

import (
	"go/ast"
	"go/types"
)

// sendTx records the call that sends the pipeline or batch e holds
// (Pipeliner.Exec, glide's Client.Exec): the group's Pos.
func (r *resolver) sendTx(e ast.Expr, call *ast.CallExpr) {
	if o := r.rootObj(e); o != nil {
		if tx := r.txByObj[o]; tx != nil {
			tx.Pos = call.Pos()
		}
	}
}

// groupTx attaches Ops to their transaction or pipeline, in source order:
//   - Ops sent on a variable that holds a pipeline or batch (pipe :=
//     rdb.TxPipeline(), b := pipeline.NewStandaloneBatch(true)) or on a
//     TxPipelined callback's parameter;
//   - Ops already grouped by their sender (valkey-go DoMulti, radix
//     pipelines);
//   - MULTI ... EXEC sequences sent on one connection variable in one
//     function (redigo Send("MULTI") ... Do("EXEC"), a dedicated valkey-go
//     client, radix WithConn). DISCARD abandons the sequence.
//
// The MULTI and EXEC that only delimit a group are then dropped: the Tx
// stands for them.
func (r *resolver) groupTx() {
	for _, op := range r.ops {
		if op.Tx == nil && op.conn != nil {
			if tx := r.txByObj[op.conn]; tx != nil {
				op.Tx = tx
			}
		}
	}

	type seqKey struct {
		scope ast.Node
		conn  types.Object
	}
	type seq struct {
		tx      *Tx
		multi   *Op
		members []*Op
	}
	open := map[seqKey]*seq{}
	for _, op := range r.ops {
		if op.Kind != Command || op.Tx != nil || op.conn == nil || op.scope == nil || op.Client.Tx&TxSequence == 0 {
			continue
		}
		k := seqKey{op.scope, op.conn}
		switch op.Name {
		case "MULTI":
			open[k] = &seq{tx: &Tx{Kind: Multi}, multi: op}
		case "EXEC":
			// A MULTI never closed in the function is not a transaction we
			// can see: its ops stay ungrouped and the MULTI stays an Op.
			if sq := open[k]; sq != nil {
				sq.tx.Pos = op.Pos
				op.boundary, sq.multi.boundary = true, true
				for _, m := range sq.members {
					m.Tx = sq.tx
				}
				delete(open, k)
			}
		case "DISCARD":
			delete(open, k)
		default:
			if sq := open[k]; sq != nil {
				sq.members = append(sq.members, op)
			}
		}
	}

	kept := r.ops[:0]
	for _, op := range r.ops {
		if op.boundary {
			continue
		}
		if op.Tx != nil {
			op.Tx.Ops = append(op.Tx.Ops, op)
		}
		kept = append(kept, op)
	}
	r.ops = kept
}
