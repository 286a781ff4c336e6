package models

import (
	"os"
	"path/filepath"
	"strings"
)

// AgentDirEnv overrides the agent directory.
const AgentDirEnv = "PI_CODING_AGENT_DIR"

// AgentDir returns the agent directory: $PI_CODING_AGENT_DIR, else
// ~/.gopi/agent (getenv is os.Getenv when nil). A leading "~/" in the
// override is expanded.
func AgentDir(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if d := strings.TrimSpace(getenv(AgentDirEnv)); d != "" {
		if rest, ok := strings.CutPrefix(d, "~/"); ok {
			return filepath.Join(home, rest)
		}
		return d
	}
	return filepath.Join(home, ".gopi", "agent")
}
