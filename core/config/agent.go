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
	EnvStreamConnectTimeout    = "PI_STREAM_CONNECT_TIMEOUT_MS"     // TCP connect and TLS handshake to a provider, in ms; 0 means no limit
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
//
// A variable wins over the provider.firstEventTimeoutMs and
// provider.idleTimeoutMs settings, which follow the same rules.
func (c *Config) StreamTimeouts() (firstEvent, idle time.Duration) {
	t := c.ProviderTimeouts()
	return t.FirstEvent, t.Idle
}

// ProviderTimeouts are the limits on one model provider request, each 0
// for the built-in default, negative for none, else the duration.
type ProviderTimeouts struct {
	Connect    time.Duration // TCP connect plus TLS handshake
	FirstEvent time.Duration // until the response starts
	Idle       time.Duration // silence inside a streamed response
}

// ProviderTimeouts returns the provider request limits: the PI_STREAM_*
// variables (in ms; 0 turns a limit off) first, then the
// provider.connectTimeoutMs, provider.firstEventTimeoutMs and
// provider.idleTimeoutMs settings (same rules), else the defaults.
func (c *Config) ProviderTimeouts() ProviderTimeouts {
	idleVar := c.Env.Get(EnvStreamIdleTimeout)
	if idleVar == "" {
		idleVar = c.Env.Get(EnvOpenAIStreamIdleTimeout)
	}
	pick := func(envValue, key string) time.Duration {
		if strings.TrimSpace(envValue) != "" {
			return millisSetting(envValue)
		}
		if c.Settings != nil && c.Settings.IsSet(key) {
			return millisSetting(strconv.FormatInt(int64(c.Settings.Float(key)), 10))
		}
		return 0
	}
	return ProviderTimeouts{
		Connect:    pick(c.Env.Get(EnvStreamConnectTimeout), "provider.connectTimeoutMs"),
		FirstEvent: pick(c.Env.Get(EnvStreamFirstEventTimeout), "provider.firstEventTimeoutMs"),
		Idle:       pick(idleVar, "provider.idleTimeoutMs"),
	}
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
