// Package glide: LA110 on valkey-glide Go v2 with database/sql.
package glide

import (
	"context"
	"database/sql"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

func unfenced(ctx context.Context, c *glide.Client, db *sql.DB, token string) error {
	if _, err := c.SetWithOptions(ctx, "lock:job", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second))); err != nil {
		return err
	}
	_, err := db.Exec("UPDATE jobs SET done = true") // want `^write db\.Exec under the lock of a\.go:15 carries no fence: INCR one in the acquire's MULTI and check it in the write \(WHERE fence < \$f\)$`
	return err
}

func fenced(ctx context.Context, c *glide.Client, db *sql.DB, token string) error {
	b := pipeline.NewStandaloneBatch(true)
	b.SetWithOptions("lock:{job}", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second)))
	b.Incr("fence:{job}")
	res, err := c.Exec(ctx, *b, true)
	if err != nil {
		return err
	}
	_, err = db.Exec("UPDATE jobs SET fence = $1 WHERE fence < $1", res[1])
	return err
}
