package websearch

import "github.com/gopi-agent/gopi/internal/termsafe"

// printable is s made safe for a terminal on one line: escape sequences,
// control characters and bidi overrides are removed (a search result must
// not recolour, retitle or move the cursor of the terminal it is printed
// on, nor reorder what is shown), and tabs and line breaks become spaces
// (termsafe.Line).
func printable(s string) string { return termsafe.Line(s) }
