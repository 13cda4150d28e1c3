// Package evaluse releases locks through another package's generic Eval
// wrappers (la108/evalrepo): one that returns only the error drops the
// release's 0 reply, so the caller can never see a lost lock.
package evaluse

import (
	"context"
	"errors"

	"la108/evalrepo"
)

const unlockScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`

type Lock struct {
	repo   *evalrepo.Repository
	values map[string]string
}

func (l *Lock) Release(ctx context.Context, key string) error {
	val, ok := l.values[key]
	if !ok {
		return errors.New("unknown key")
	}
	return l.repo.Eval(ctx, unlockScript, []string{"lock:" + key}, val) // want `^Eval returns only the error of the Lua release, but 0 \(lock lost\) is no error: return the reply and record an incident if it was lost$`
}

func (l *Lock) ReleaseResult(ctx context.Context, key string) {
	l.repo.EvalErr(ctx, unlockScript, []string{"lock:" + key}, l.values[key]) // want `^EvalErr returns only the error of the Lua release, but 0 \(lock lost\) is no error:`
}

// Negatives: the reply comes back, or the wrapper reads it itself.

func (l *Lock) ReleaseChecked(ctx context.Context, key string) error {
	n, err := l.repo.EvalInt(ctx, unlockScript, []string{"lock:" + key}, l.values[key])
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("lock lost")
	}
	return nil
}

func (l *Lock) ReleaseLogged(ctx context.Context, key string) error {
	return l.repo.EvalLogged(ctx, unlockScript, []string{"lock:" + key}, l.values[key])
}

// A data script that frees the lock on the side and replies "OK" whatever
// happened: its reply never says "lost", so the wrapper drops nothing.
const doneScript = `
if redis.call("LREM", KEYS[1], 0, ARGV[1]) == 0 then
  return redis.error_reply("NOT FOUND")
end
if redis.call("GET", KEYS[2]) == ARGV[1] then
  redis.call("DEL", KEYS[2])
end
return redis.status_reply("OK")`

func (l *Lock) Done(ctx context.Context, key string) error {
	return l.repo.Eval(ctx, doneScript, []string{"queue", "lock:" + key}, l.values[key])
}
