// Package facts is the module lockaudit's driver tests run on to check
// that lock facts flow between packages in every driver (lockaudit vet, go
// vet -vettool, golangci-lint): store is the service's own Redis helper
// package, tokens its token helper, dispatch uses both. Every finding is
// marked in the code with the rule that reports it; the findings in
// dispatch exist only through the other packages' facts.
//
//	store     a release helper and a client interface over go-redis v9
//	tokens    a token drawn from a time-seeded math/rand source
//	dispatch  takes a lock through store with a token from tokens
package facts
