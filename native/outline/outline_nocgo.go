//go:build !cgo

package outline

import "context"

// Bodies needs cgo (the grammars are C); without it every language is
// unsupported.
func Bodies(ctx context.Context, lang string, src []byte, minLines int) ([]Span, error) {
	return nil, ErrUnsupported
}
