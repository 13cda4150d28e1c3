// Package la115 defines an Analyzer that reports a WAIT or WAITAOF whose
// reply is discarded (rule LA115, wait-reply-ignored).
//
// The reply is the number of replicas (WAITAOF: local and replica AOF
// fsyncs) that acknowledged; WAIT narrows the failover window only when the
// caller acts on a short count. Reported: the reply discarded (an expression
// statement, go/defer, assigned to _), and only the error checked (the
// count is dropped all the same). Not reported: a reply that is stored,
// passed on, returned, or sent in a transaction whose results are read
// (reply.Of says Examined or Unseen). How a reply is used does not
// depend on the command's arguments, so WAIT is checked even when they
// could not all be seen.
package la115
