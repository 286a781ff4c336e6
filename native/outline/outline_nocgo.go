//go:build !cgo

package outline

import "context"

// Bodies handles only Go without cgo (the other grammars are C).
func Bodies(ctx context.Context, lang string, src []byte, minLines int) ([]Span, error) {
	if lang == "go" {
		return goBodies(src, minLines)
	}
	return nil, ErrUnsupported
}
