package tool

import "context"

// callIDKey is the context key of the model's tool call id.
type callIDKey struct{}

// WithCallID returns ctx carrying the provider's id of the call being
// executed; the agent loop sets it for every call.
func WithCallID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callIDKey{}, id)
}

// CallID returns the tool call id ctx carries, or "".
func CallID(ctx context.Context) string {
	id, _ := ctx.Value(callIDKey{}).(string)
	return id
}
