package fscache

import (
	"os"
	"strconv"
	"time"
)

// PolicyFromEnv returns DefaultPolicy overridden by the environment:
// EnvTTL and EnvEmptyRecheck in milliseconds (0 allowed; a TTL of 0 disables
// caching), EnvMaxEntries as a count of at least 1. A variable that is unset,
// empty, negative, out of range or not a decimal integer keeps its default.
func PolicyFromEnv() Policy {
	p := DefaultPolicy
	if ms, ok := envInt(EnvTTL, 0); ok {
		p.TTL = time.Duration(ms) * time.Millisecond
	}
	if ms, ok := envInt(EnvEmptyRecheck, 0); ok {
		p.EmptyRecheck = time.Duration(ms) * time.Millisecond
	}
	if n, ok := envInt(EnvMaxEntries, 1); ok {
		p.MaxEntries = int(n)
	}
	return p
}

// maxEnvMillis keeps durations far from time.Duration overflow (about 292
// years fit; a million hours is plenty).
const maxEnvMillis = int64(1e6 * 3600 * 1000)

// envInt parses a decimal environment variable that must be at least lowest.
func envInt(name string, lowest int64) (int64, bool) {
	v := os.Getenv(name)
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lowest || n > maxEnvMillis {
		return 0, false
	}
	return n, true
}
