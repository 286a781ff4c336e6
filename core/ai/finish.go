package ai

import "context"

// Finish ends the message after a provider's request has run: with an
// "error" event for err, or for ctx's error when ctx ended (aborted), else
// with Done. Providers call it once their stream goroutine is through:
//
//	go func() { em.Finish(ctx, req.Model, p.run(ctx, req, em)) }()
func (e *Emitter) Finish(ctx context.Context, model *Model, err error) {
	switch {
	case err != nil:
		e.Fail(ctx, model, err)
	case ctx.Err() != nil:
		e.Fail(ctx, model, ctx.Err())
	default:
		e.Done(model)
	}
}
