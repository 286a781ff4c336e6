// Package gopi holds the documentation gopi ships inside its binary:
// README.md and docs/*.md, which the read tool serves as pi:// URLs
// (core/pidocs).
package gopi

import "embed"

// Docs are README.md and docs/*.md as they were when gopi was built.
//
//go:embed README.md docs/*.md
var Docs embed.FS
