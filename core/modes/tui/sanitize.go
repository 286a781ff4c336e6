package tui

import (
	"strings"

	"github.com/gopi-agent/gopi/internal/termsafe"
)

// clean makes text from the model, tools and files safe to print: escape
// sequences, control characters and bidi overrides are removed (a model
// or a file must not retitle the window, write the clipboard, move the
// cursor or reorder what is shown), a carriage return makes what follows
// it overwrite the line from its start as a terminal shows it, and invalid
// UTF-8 becomes U+FFFD (termsafe.Text). Model text goes through modelText
// first, where a carriage return is a line break.
func clean(s string) string { return termsafe.Text(s) }

// modelText prepares text the model wrote for printing: a carriage return
// (alone or before a newline) is a line break, as omp shows it, so no text
// is overwritten; then clean.
func modelText(s string) string {
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	return clean(s)
}
