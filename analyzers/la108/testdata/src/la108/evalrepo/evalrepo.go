// Package evalrepo is a project's generic repository over go-redis:
// scripts and keys are its callers' (shape seen in the wild: an Eval
// wrapper that returns only result.Err()). la108/evaluse runs releases
// through it.
package evalrepo

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Repository struct{ client *redis.Client }

// Eval returns only the error: the reply ends here.
func (r *Repository) Eval(ctx context.Context, script string, keys []string, args ...interface{}) error {
	result := r.client.Eval(ctx, script, keys, args...)
	return result.Err()
}

// EvalErr drops the value the same way, through Result.
func (r *Repository) EvalErr(ctx context.Context, script string, keys []string, args ...interface{}) error {
	_, err := r.client.Eval(ctx, script, keys, args...).Result()
	return err
}

// Negatives: a wrapper that returns the reply, and one that reads it
// itself (logs a zero reply) before returning the error.

func (r *Repository) EvalInt(ctx context.Context, script string, keys []string, args ...interface{}) (int64, error) {
	return r.client.Eval(ctx, script, keys, args...).Int64()
}

func (r *Repository) EvalLogged(ctx context.Context, script string, keys []string, args ...interface{}) error {
	n, err := r.client.Eval(ctx, script, keys, args...).Int64()
	if n == 0 {
		println("script changed nothing")
	}
	return err
}
