// Package browser is the browser tool: named tabs of a headless Chromium
// (or of a browser attached over CDP) that the model opens, closes and
// scripts. The browser itself is driven through the headless engine; this
// package owns the session's tabs (Manager: started on first use, closed
// with the session, a tab in use answers `Tab "…" is busy`), the tool's
// schema and texts (tool.go), the JavaScript run on goja with its `tab`
// helpers (script.go) and screenshots for the model (screenshot.go).
//
// The tool is offered when browser.enabled is on and a Chromium was found
// (config.Browser.Exec); nothing is downloaded.
package browser
