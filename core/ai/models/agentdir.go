package models

import "github.com/gopi-agent/gopi/core/config"

// AgentDirEnv overrides the agent directory (core/config reads it).
const AgentDirEnv = config.EnvCodingAgentDir

// AgentDir returns the agent directory as core/config places it:
// $PI_CODING_AGENT_DIR ("~/" expanded), else ~/.gopi/agent. getenv is the
// lookup to use (a Config's Env.Get); nil means the process environment.
func AgentDir(getenv func(string) string) string { return config.DefaultAgentDir(getenv) }
