//go:build !unix

package headless

import (
	"context"
	"errors"
)

// SpawnTimeout bounds the wait for a spawned app's DevTools endpoint.
const SpawnTimeout = 0

// SpawnOptions say which app to start for the browser tool's app.path.
type SpawnOptions struct {
	Exec string
	Args []string
}

// Spawn is not available on this system.
func Spawn(context.Context, SpawnOptions) (*Browser, error) {
	return nil, errors.New("app.path is not supported on this system: start the app with --remote-debugging-port and pass app.cdp_url")
}

// DebugPort is the --remote-debugging-port of a command line; 0 here.
func DebugPort([]string) int { return 0 }

// endPids is not needed here: nothing is reused.
func endPids(context.Context, map[int][]string) {}
