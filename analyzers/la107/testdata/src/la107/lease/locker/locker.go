// Package locker declares a lock interface whose Redis implementation
// lives in the package that uses it (la107/lease), as gkit's does.
package locker

type Locker interface {
	Lock(key string, expire int, mark string) error
	UnLock(key string, mark string) error
}

// Cache is an interface some look-alike implements in la107/lease.
type Cache interface {
	Put(key, value string) error
}
