package config

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Environment variables of the agent runtime.
const (
	EnvStreamIdleTimeout       = "PI_STREAM_IDLE_TIMEOUT_MS"        // silence allowed inside a streamed answer, in ms; 0 turns the watchdog off
	EnvOpenAIStreamIdleTimeout = "PI_OPENAI_STREAM_IDLE_TIMEOUT_MS" // older name of PI_STREAM_IDLE_TIMEOUT_MS
	EnvStreamFirstEventTimeout = "PI_STREAM_FIRST_EVENT_TIMEOUT_MS" // wait for an answer to start, in ms; 0 turns the watchdog off
)

// SessionsDir is where gopi stores sessions: <agent dir>/sessions.
func (c *Config) SessionsDir() string { return filepath.Join(c.AgentDir, "sessions") }

// OMPSessionsDir is where omp stores sessions (~/.omp/agent/sessions),
// searched after gopi's own so an omp user's sessions can be resumed.
func (c *Config) OMPSessionsDir() string { return filepath.Join(c.OMPAgentDir, "sessions") }

// BlobDir is the content-addressed store for images taken out of session
// files: <agent dir>/blobs.
func (c *Config) BlobDir() string { return filepath.Join(c.AgentDir, "blobs") }

// OMPBlobDir is omp's blob store (~/.omp/agent/blobs): the images of omp's
// sessions, read when gopi resumes one.
func (c *Config) OMPBlobDir() string { return filepath.Join(c.OMPAgentDir, "blobs") }

// StreamTimeouts returns the provider stream watchdogs in the form
// core/ai's Request takes: 0 for the built-in default (the variable is
// unset or not a number), a negative value for "off" (the variable is 0),
// else the duration.
func (c *Config) StreamTimeouts() (firstEvent, idle time.Duration) {
	idleVar := c.Env.Get(EnvStreamIdleTimeout)
	if idleVar == "" {
		idleVar = c.Env.Get(EnvOpenAIStreamIdleTimeout)
	}
	return millisSetting(c.Env.Get(EnvStreamFirstEventTimeout)), millisSetting(idleVar)
}

func millisSetting(v string) time.Duration {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	switch {
	case err != nil || n < 0:
		return 0
	case n == 0:
		return -1
	}
	return time.Duration(n) * time.Millisecond
}
