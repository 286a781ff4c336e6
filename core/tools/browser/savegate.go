package browser

import "context"

// SaveGate lets the session check a file a screenshot is about to save
// (tab.screenshot({save}) or browser.screenshotDir) as it checks the
// write tool's calls: tool_call hooks, plan mode and the permission gate
// see a write of abs (size bytes of PNG). It calls write, which makes the
// directories and writes through the atomic write path, only when the
// write is allowed, and returns the refusal or write's error. Without a
// gate (gopi tool, tests) plan mode alone is checked.
type SaveGate func(ctx context.Context, abs string, size int, write func() error) error
