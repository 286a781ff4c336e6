package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// checker is implemented by argument structs whose fields need more than
// their JSON types say (a required field, a closed set of values).
type checker interface {
	check() error
}

// withArgs makes a command of a handler that works on its decoded
// arguments: the frame is decoded into a fresh A (a failure answers
// "invalid command: …"), checked when *A has a check method, and handed
// to run. Every command with arguments goes through it, so the frame is
// read and its errors are worded in one place.
func withArgs[A any](run func(ctx context.Context, srv *server, id json.RawMessage, args *A) (any, error)) command {
	return func(ctx context.Context, srv *server, id json.RawMessage, line []byte) (any, error) {
		var a A
		if err := decodeArgs(line, &a); err != nil {
			return nil, err
		}
		return run(ctx, srv, id, &a)
	}
}

// decodeArgs decodes the first JSON value of line into v and checks it.
func decodeArgs(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid command: %w", err)
	}
	if c, ok := v.(checker); ok {
		return c.check()
	}
	return nil
}
