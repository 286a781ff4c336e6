package models

import "github.com/gopi-agent/gopi/core/config"

// AgentDirEnv overrides the agent directory (core/config reads it).
const AgentDirEnv = config.EnvCodingAgentDir

// AgentDir returns the agent directory as core/config places it:
// $PI_CODING_AGENT_DIR ("~/" expanded), else ~/.gopi/agent. getenv is the
// lookup to use (a Config's Env.Get); nil means the process environment.
func AgentDir(getenv func(string) string) string { return config.DefaultAgentDir(getenv) }

// OptionsFor points a registry at a configuration: gopi's agent directory,
// omp's user directory as a fallback for models.yml, and the environment
// with its .env files.
func OptionsFor(cfg *config.Config) Options {
	o := Options{AgentDir: cfg.AgentDir, Getenv: cfg.Env.Get}
	for _, s := range cfg.Sources() {
		if s.ID == config.SourceOMP && s.UserDir != "" {
			o.FallbackDirs = append(o.FallbackDirs, s.UserDir)
		}
	}
	return o
}
