//go:build race

package index

// raceEnabled: the race detector slows SQLite (pure Go) twentyfold, so
// the differential tests try fewer patterns under it.
const raceEnabled = true
