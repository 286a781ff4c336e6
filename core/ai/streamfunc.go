package ai

import "context"

// StreamFunc is the common body of a provider's Stream: it sets the
// request id, runs produce in a goroutine of its own (which ends when
// produce returns; produce must honour ctx) and returns the stream at once.
// A produce error, or ctx ending, finishes the message with an error event;
// otherwise it is done.
func StreamFunc(ctx context.Context, req *Request, produce func(ctx context.Context, em *Emitter) error) *Stream {
	em, s := NewRequestEmitter(req)
	req.EnsureRequestID()
	go func() {
		if err := produce(ctx, em); err != nil {
			em.Fail(ctx, req.Model, err)
			return
		}
		if ctx.Err() != nil {
			em.Fail(ctx, req.Model, ctx.Err())
			return
		}
		em.Done(req.Model)
	}()
	return s
}
