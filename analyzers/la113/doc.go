// Package la113 defines an Analyzer that reports a lock key and a fence key
// used in one MULTI or one script run without a shared hash tag (rule
// LA113, fence-cross-slot).
//
// In a MULTI (TxPipelined, TxPipeline().Exec, DoMulti(MULTI..EXEC), redigo
// Send MULTI..Do EXEC, a glide atomic batch): the lock keys are those of
// the SET NX/SETNX ops and of other ops on lock keys (see LA103); the fence
// keys those of its fencing INCR/INCRBY ops (fence.Info.Fence: a fence-key
// pattern, or any INCR queued with a SET NX). In a script run with several
// keys: a lock key and a key matching a fence-key pattern (-LA113.fence-key-
// pattern, the shared setting). Tags that wrap the same expression are
// shared ("lock:{"+id+"}" with "fence:{"+id+"}", or one Sprintf format with
// the same argument); a key without a tag never shares one; tags of
// different constant text never do. Tags filled by different expressions,
// or text against an expression, may still be equal at run time and are
// not reported; neither are keys whose text cannot be seen (a parameter).
// Plain pipelines are not reported: a cluster client splits them by slot.
package la113
