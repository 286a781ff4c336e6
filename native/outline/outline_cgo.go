//go:build cgo

package outline

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// Bodies parses src as lang (a name LanguageOf returns) and returns, in
// file order, the line spans of the function and method bodies that are
// at least minLines long. A nested function inside a dropped body is not
// reported on its own. It fails with ErrUnsupported or ErrSyntax.
func Bodies(ctx context.Context, lang string, src []byte, minLines int) ([]Span, error) {
	return BodiesOf(ctx, nil, lang, "", nil, src, minLines)
}

// BodiesOf is Bodies for the content of the file at path, read after info
// was taken: the tree goes through cache (nil: none), which the AST search
// tools of the same session share, so a file both summarised and searched
// is parsed once.
func BodiesOf(ctx context.Context, cache *astgrep.ParseCache, lang, path string, info os.FileInfo, src []byte, minLines int) ([]Span, error) {
	if lang == "go" {
		return goBodies(src, minLines)
	}
	if _, ok := functionKinds[lang]; !ok {
		return nil, ErrUnsupported
	}
	var stamp *astgrep.FileStamp
	if info != nil && path != "" {
		stamp = astgrep.StampOf(info)
	}
	got, err := astgrep.Outline(ctx, cache, lang, path, stamp, src, minLines)
	switch {
	case errors.Is(err, astgrep.ErrOutlineSyntax):
		return nil, ErrSyntax
	case errors.Is(err, astgrep.ErrOutlineUnsupported), errors.Is(err, astgrep.ErrOutlineNotUTF8):
		return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
	case err != nil:
		return nil, err
	}
	spans := make([]Span, len(got))
	for i, s := range got {
		spans[i] = Span{Start: s.Start, End: s.End}
	}
	return spans, nil
}
