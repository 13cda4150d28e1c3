// Package glide is the native lock pattern done right on valkey-glide Go v2.
package glide

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

func Run(ctx context.Context, c *glide.Client, db *sql.DB, job string) error {
	token := rand.Text()
	b := pipeline.NewStandaloneBatch(true)
	b.SetWithOptions("lock:{"+job+"}", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second)))
	b.Incr("fence:{" + job + "}")
	res, err := c.Exec(ctx, *b, true)
	if err != nil {
		return err
	}
	fence := res[1]
	if n, err := c.Wait(ctx, 1, time.Second); err != nil || n < 1 {
		return errors.New("not replicated")
	}
	if _, err := db.ExecContext(ctx, "UPDATE jobs SET fence = ? WHERE id = ? AND fence < ?", fence, job, fence); err != nil {
		return err
	}
	n, err := c.CustomCommand(ctx, []string{"DELIFEQ", "lock:{" + job + "}", token})
	if err == nil && n == int64(0) {
		return errors.New("lost")
	}
	return err
}
