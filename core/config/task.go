package config

import (
	"strconv"
	"strings"
)

// Environment variables that cap what a task subagent returns.
const (
	EnvTaskMaxOutputBytes = "PI_TASK_MAX_OUTPUT_BYTES" // bytes of a subagent's output kept in the task result
	EnvTaskMaxOutputLines = "PI_TASK_MAX_OUTPUT_LINES" // lines of a subagent's output kept in the task result
)

// Defaults of the task output caps.
const (
	DefaultTaskMaxOutputBytes = 500_000
	DefaultTaskMaxOutputLines = 5000
)

// Task is the task.* group: how the task tool runs subagents.
type Task struct {
	MaxConcurrency      int               // task.maxConcurrency: tasks of one call running at once (default 32)
	MaxRecursionDepth   int               // task.maxRecursionDepth: how deep subagents may nest (default 2; negative: no limit)
	DisabledAgents      []string          // task.disabledAgents: agent names the tool refuses
	AgentModelOverrides map[string]string // task.agentModelOverrides: agent name → model patterns, comma-separated
	MaxOutputBytes      int               // PI_TASK_MAX_OUTPUT_BYTES (default 500000)
	MaxOutputLines      int               // PI_TASK_MAX_OUTPUT_LINES (default 5000)
}

// Task returns the task.* settings with the output caps from the
// environment (positive decimal integers; anything else keeps the
// default).
func (c *Config) Task() Task {
	s := c.Settings
	return Task{
		MaxConcurrency:      s.Int("task.maxConcurrency"),
		MaxRecursionDepth:   s.Int("task.maxRecursionDepth"),
		DisabledAgents:      s.Strings("task.disabledAgents"),
		AgentModelOverrides: s.StringMap("task.agentModelOverrides"),
		MaxOutputBytes:      positiveEnv(c.Env, EnvTaskMaxOutputBytes, DefaultTaskMaxOutputBytes),
		MaxOutputLines:      positiveEnv(c.Env, EnvTaskMaxOutputLines, DefaultTaskMaxOutputLines),
	}
}

// positiveEnv returns the variable as a positive integer, else def.
func positiveEnv(env Env, name string, def int) int {
	if n, err := strconv.Atoi(strings.TrimSpace(env.Get(name))); err == nil && n > 0 {
		return n
	}
	return def
}
