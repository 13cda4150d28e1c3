// Package la105 defines an Analyzer that reports a SET combining IFEQ with
// NX or XX (rule LA105, ifeq-conflict): the server answers ERR syntax error,
// so the command never runs. go-redis SetArgs and glide SetOptions cannot
// express the conflict (one mode field; glide's condition setters override
// each other), nor can the valkey-go/rueidis typed builder; raw commands
// can (go-redis Do, redigo, valkey-go Arbitrary, glide CustomCommand, radix).
//
// The conflict is reported whenever both options are visible, even if other
// arguments are not: the command is invalid whatever they are.
//
// It also reports a SET IFEQ sent by a valkey-glide client configured with
// client-side compression (config WithCompressionConfiguration, not
// switched off with WithEnabled(false)), traced from glide.NewClient through
// variables and fields: glide compresses the value a SET stores but not the
// IFEQ comparison, so the extend never matches (glide 2.6 rejects it).
package la105
