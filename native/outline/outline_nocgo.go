//go:build !cgo

package outline

import (
	"context"
	"os"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// Bodies handles only Go without cgo (the other grammars are C).
func Bodies(ctx context.Context, lang string, src []byte, minLines int) ([]Span, error) {
	if lang == "go" {
		return goBodies(src, minLines)
	}
	return nil, ErrUnsupported
}

// BodiesOf is Bodies; there is no parse cache without cgo.
func BodiesOf(ctx context.Context, cache *astgrep.ParseCache, lang, path string, info os.FileInfo, src []byte, minLines int) ([]Span, error) {
	return Bodies(ctx, lang, src, minLines)
}
