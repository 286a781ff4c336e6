package config

import (
	"os"
	"path/filepath"
	"strings"
)

// Environment variables that place gopi's directories.
const (
	EnvCodingAgentDir = "PI_CODING_AGENT_DIR" // the agent directory itself ("~/" expanded, relative to the working directory)
	EnvConfigDir      = "PI_CONFIG_DIR"       // name of the config directory under home and in projects
)

// Directory names.
const (
	DirName    = ".gopi" // gopi's config directory under home and in a project
	OMPDirName = ".omp"  // omp's, read as a lower-priority source
	agentName  = "agent" // the agent directory inside the config root
)

// Dirs are the directories configuration is read from and written to.
type Dirs struct {
	Home          string // the user's home directory
	Cwd           string // absolute working directory
	ConfigRoot    string // ~/.gopi, or ~/$PI_CONFIG_DIR
	AgentDir      string // ConfigRoot/agent, or $PI_CODING_AGENT_DIR
	ProjectDir    string // Cwd/.gopi, or Cwd/$PI_CONFIG_DIR
	OMPRoot       string // ~/.omp
	OMPAgentDir   string // ~/.omp/agent
	OMPProjectDir string // Cwd/.omp
}

// ResolveDirs places the directories for a home and working directory
// (cwd is made absolute) with the overrides getenv returns.
func ResolveDirs(getenv func(string) string, home, cwd string) Dirs {
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	name := DirName
	if n := strings.TrimSpace(getenv(EnvConfigDir)); n != "" {
		name = n
	}
	d := Dirs{
		Home:          home,
		Cwd:           cwd,
		ConfigRoot:    filepath.Join(home, name),
		ProjectDir:    filepath.Join(cwd, name),
		OMPRoot:       filepath.Join(home, OMPDirName),
		OMPAgentDir:   filepath.Join(home, OMPDirName, agentName),
		OMPProjectDir: filepath.Join(cwd, OMPDirName),
	}
	d.AgentDir = AgentDirFor(getenv, home, cwd)
	return d
}

// AgentDirFor returns the agent directory: $PI_CODING_AGENT_DIR with "~"
// expanded and made absolute against cwd, else home/.gopi/agent (the
// config directory named by $PI_CONFIG_DIR when set).
func AgentDirFor(getenv func(string) string, home, cwd string) string {
	if d := strings.TrimSpace(getenv(EnvCodingAgentDir)); d != "" {
		d = expandHome(d, home)
		if !filepath.IsAbs(d) {
			d = filepath.Join(cwd, d)
		}
		return filepath.Clean(d)
	}
	name := DirName
	if n := strings.TrimSpace(getenv(EnvConfigDir)); n != "" {
		name = n
	}
	return filepath.Join(home, name, agentName)
}

// expandHome expands a leading "~" or "~/" to home.
func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(home, rest)
	}
	return p
}

// homeDir picks the home directory: $HOME from env, else the system's
// idea of it.
func homeDir(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// DefaultAgentDir is AgentDirFor with the home directory from getenv's
// HOME (else the system's) and the process's working directory, for
// library entry points called without a Config. A nil getenv is the
// process environment.
func DefaultAgentDir(getenv func(string) string) string {
	if getenv == nil {
		getenv = ProcessEnv().Get
	}
	cwd, _ := os.Getwd()
	return AgentDirFor(getenv, homeDir(getenv), cwd)
}
