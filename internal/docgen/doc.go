// Package docgen keeps the reference tables in docs/ in step with the
// code: the CLI flags (from the flag sets the commands parse with), the
// settings (from core/config's schema table), the interactive mode's
// slash commands and key bindings, and the RPC commands (from the tables
// those modes dispatch on).
//
// A generated table sits between two HTML comments in a Markdown file,
//
//	<!-- BEGIN generated NAME: edit the code, then run make docs -->
//	…
//	<!-- END generated NAME -->
//
// and Sync rewrites what is between them. Prose around the markers is
// written by hand and never touched. Every section must have exactly one
// place in the docs and every marker must name a known section, so a
// table can neither go missing nor be left behind.
//
// The CLI's flag sets live in package main, so the check and the
// regeneration run from a test there (cmd/gopi, TestDocsUpToDate): `make
// docs` rewrites the tables, and the test fails while they differ.
package docgen
