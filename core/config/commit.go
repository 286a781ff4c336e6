package config

import "strings"

// Environment variables of `gopi commit` (omp's names).
const (
	EnvCommitTestFallback = "PI_COMMIT_TEST_FALLBACK" // "true" (any case): skip the agent, commit with the file-name message
	EnvCommitNoFallback   = "PI_COMMIT_NO_FALLBACK"   // "true" (any case): no file-name message when the agent proposes nothing
	EnvCommitMapReduce    = "PI_COMMIT_MAP_REDUCE"    // "false" (any case): --legacy never splits a large diff into per-file requests
)

// CommitSettings are what `gopi commit` reads from the environment and
// the commit.* settings.
type CommitSettings struct {
	ForceFallback bool // PI_COMMIT_TEST_FALLBACK
	NoFallback    bool // PI_COMMIT_NO_FALLBACK

	MapReduce            bool // commit.mapReduceEnabled, unless PI_COMMIT_MAP_REDUCE=false
	MapReduceMinFiles    int  // commit.mapReduceMinFiles: files from which --legacy maps and reduces
	MapReduceMaxTokens   int  // commit.mapReduceMaxFileTokens: a file diff over this (≈ chars/4) maps and reduces too
	MapReduceTimeoutMs   int  // commit.mapReduceTimeoutMs: limit of one per-file request
	MapReduceConcurrency int  // commit.mapReduceMaxConcurrency: per-file requests at once
}

// Commit returns the settings of `gopi commit`.
func (c *Config) Commit() CommitSettings {
	isTrue := func(name string) bool { return strings.EqualFold(c.Env.Get(name), "true") }
	s := CommitSettings{
		ForceFallback:        isTrue(EnvCommitTestFallback),
		NoFallback:           isTrue(EnvCommitNoFallback),
		MapReduce:            c.Settings.Bool("commit.mapReduceEnabled") && !strings.EqualFold(c.Env.Get(EnvCommitMapReduce), "false"),
		MapReduceMinFiles:    c.Settings.Int("commit.mapReduceMinFiles"),
		MapReduceMaxTokens:   c.Settings.Int("commit.mapReduceMaxFileTokens"),
		MapReduceTimeoutMs:   c.Settings.Int("commit.mapReduceTimeoutMs"),
		MapReduceConcurrency: c.Settings.Int("commit.mapReduceMaxConcurrency"),
	}
	return s
}
