package tui

import "github.com/gopi-agent/gopi/internal/termsafe"

// clean makes text from the model, tools and files safe to print: escape
// sequences, control characters and bidi overrides are removed (a model
// or a file must not retitle the window, write the clipboard, move the
// cursor or reorder what is shown), a carriage return keeps what follows
// it on its line, and invalid UTF-8 becomes U+FFFD (termsafe.Text).
func clean(s string) string { return termsafe.Text(s) }
