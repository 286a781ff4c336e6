// Package headless drives a Chromium over the DevTools protocol (CDP)
// through go-rod: it finds the system browser (Find), starts it under
// gopi's process policy (Launch: its own process group, gopi's mark, so
// the childproc guard ends it even after kill -9 of gopi), attaches to a
// running browser (Attach), and gives named pages (Tab) the few actions
// the browser tool's scripts use: navigate, click, type, wait, evaluate,
// screenshot and readable-text extraction (Extract).
//
// The package reads no configuration: the executable, flags and limits
// are passed in by the caller.
package headless
