package config

import (
	"errors"
	"os"
	"path/filepath"
)

// ErrShadowed marks a discovery note about an item hidden by an earlier
// one of the same name (a skill, rule or template): expected when several
// agents' directories hold copies, so front ends may leave it out.
var ErrShadowed = errors.New("the first of a name wins")

// Discovery places for skills, rules and prompt templates. Each kind is
// read from several agents' directories ("providers"), each with a
// priority; the discovering packages (core/skills, core/rules,
// core/templates) keep the first item of a name in the order returned
// here, so the order is the precedence. gopi's own directories and omp's
// together form the native provider.

// Provider names of resource directories.
const (
	ProviderNative   = "native"   // gopi's .gopi/ and ~/.gopi/agent, omp's .omp/ and ~/.omp/agent
	ProviderClaude   = "claude"   // .claude/ and ~/.claude
	ProviderAgents   = "agents"   // .agents/ and ~/.agents
	ProviderCodex    = "codex"    // .codex/ and ~/.codex
	ProviderOpenCode = "opencode" // .opencode/ and ~/.config/opencode
	ProviderCursor   = "cursor"   // .cursor/rules and ~/.cursor/rules
	ProviderWindsurf = "windsurf" // .windsurf/rules and windsurf's global rules file
	ProviderCline    = "cline"    // the nearest .clinerules, a directory or a file
	ProviderCustom   = "custom"   // skills.customDirectories
	ProviderPlugin   = "plugin"   // installed marketplace plugins and --plugin-dir (core/plugins)
)

// ResourceDir is one place skills, rules or templates are read from.
type ResourceDir struct {
	Path     string   // absolute directory (or file, when IsFile)
	Provider string   // Provider* constant
	Source   SourceID // for native directories: gopi or omp; "" otherwise
	Priority int      // the provider's priority: higher wins
	Level    Level    // user or project
	IsFile   bool     // Path is a single rule file (windsurf's global rules, a .clinerules file)
	// NamePrefix goes in front of the names of the commands found here
	// (a plugin's commands are /<plugin>:<name>).
	NamePrefix string
}

// SkillDirs returns the skill roots in precedence order: native 100
// (gopi's .gopi/skills in the working directory and each ancestor up to
// the repository root or home, the agent directory's skills, then omp's
// .omp/skills and ~/.omp/agent/skills the same way), claude 80, agents and
// codex 70, opencode 55, each project before user. Each root holds
// <name>/SKILL.md. Missing directories are included; discovery skips them.
func (d Dirs) SkillDirs() []ResourceDir {
	var out []ResourceDir
	for _, s := range d.Sources()[:2] { // gopi, omp: the native provider
		if s.ProjectName != "" {
			for _, anc := range d.projectAncestors() {
				out = append(out, ResourceDir{Path: filepath.Join(anc, s.ProjectName, "skills"), Provider: ProviderNative, Source: s.ID, Priority: 100, Level: LevelProject})
			}
		}
		if s.UserDir != "" {
			out = append(out, ResourceDir{Path: filepath.Join(s.UserDir, "skills"), Provider: ProviderNative, Source: s.ID, Priority: 100, Level: LevelUser})
		}
	}
	pair := func(provider string, prio int, project, user string) {
		out = append(out,
			ResourceDir{Path: filepath.Join(d.Cwd, project, "skills"), Provider: provider, Priority: prio, Level: LevelProject},
			ResourceDir{Path: filepath.Join(user, "skills"), Provider: provider, Priority: prio, Level: LevelUser})
	}
	pair(ProviderClaude, 80, ".claude", filepath.Join(d.Home, ".claude"))
	pair(ProviderAgents, 70, ".agents", filepath.Join(d.Home, ".agents"))
	pair(ProviderCodex, 70, ".codex", filepath.Join(d.Home, ".codex"))
	pair(ProviderOpenCode, 55, ".opencode", filepath.Join(d.Home, ".config", "opencode"))
	return out
}

// RuleDirs returns the rule directories in precedence order: native 100
// (.gopi/rules, the agent directory's rules, .omp/rules,
// ~/.omp/agent/rules; project before user), cursor 50 (user, then
// project), windsurf 50 (the global rules file, then .windsurf/rules) and
// cline 40 (the nearest .clinerules above the working directory: a
// directory of rules or one rule file). Rules are *.md and *.mdc files.
func (d Dirs) RuleDirs() []ResourceDir {
	var out []ResourceDir
	for _, s := range d.Sources()[:2] {
		if s.ProjectName != "" {
			out = append(out, ResourceDir{Path: filepath.Join(d.Cwd, s.ProjectName, "rules"), Provider: ProviderNative, Source: s.ID, Priority: 100, Level: LevelProject})
		}
		if s.UserDir != "" {
			out = append(out, ResourceDir{Path: filepath.Join(s.UserDir, "rules"), Provider: ProviderNative, Source: s.ID, Priority: 100, Level: LevelUser})
		}
	}
	out = append(out,
		ResourceDir{Path: filepath.Join(d.Home, ".cursor", "rules"), Provider: ProviderCursor, Priority: 50, Level: LevelUser},
		ResourceDir{Path: filepath.Join(d.Cwd, ".cursor", "rules"), Provider: ProviderCursor, Priority: 50, Level: LevelProject},
		ResourceDir{Path: filepath.Join(d.Home, ".codeium", "windsurf", "memories", "global_rules.md"), Provider: ProviderWindsurf, Priority: 50, Level: LevelUser, IsFile: true},
		ResourceDir{Path: filepath.Join(d.Cwd, ".windsurf", "rules"), Provider: ProviderWindsurf, Priority: 50, Level: LevelProject})
	for dir := d.Cwd; ; {
		p := filepath.Join(dir, ".clinerules")
		if fi, err := os.Stat(p); err == nil {
			out = append(out, ResourceDir{Path: p, Provider: ProviderCline, Priority: 40, Level: LevelProject, IsFile: !fi.IsDir()})
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return out
}

// TemplateDirs returns the prompt-template and command directories in
// precedence order: gopi's and omp's prompts/ and commands/ (project
// before user), claude's commands/ (project, then user) and codex's
// ~/.codex/prompts. Each holds <name>.md files that /name expands.
func (d Dirs) TemplateDirs() []ResourceDir {
	var out []ResourceDir
	for _, s := range d.Sources()[:2] {
		for _, sub := range []string{"prompts", "commands"} {
			if s.ProjectName != "" {
				out = append(out, ResourceDir{Path: filepath.Join(d.Cwd, s.ProjectName, sub), Provider: ProviderNative, Source: s.ID, Priority: 100, Level: LevelProject})
			}
		}
		for _, sub := range []string{"prompts", "commands"} {
			if s.UserDir != "" {
				out = append(out, ResourceDir{Path: filepath.Join(s.UserDir, sub), Provider: ProviderNative, Source: s.ID, Priority: 100, Level: LevelUser})
			}
		}
	}
	return append(out,
		ResourceDir{Path: filepath.Join(d.Cwd, ".claude", "commands"), Provider: ProviderClaude, Priority: 80, Level: LevelProject},
		ResourceDir{Path: filepath.Join(d.Home, ".claude", "commands"), Provider: ProviderClaude, Priority: 80, Level: LevelUser},
		ResourceDir{Path: filepath.Join(d.Home, ".codex", "prompts"), Provider: ProviderCodex, Priority: 70, Level: LevelUser})
}

// projectAncestors returns the working directory and its ancestors, nearest
// first, up to the repository root (the first directory holding .git) or
// the home directory, else the file system root.
func (d Dirs) projectAncestors() []string {
	var out []string
	for dir := filepath.Clean(d.Cwd); ; {
		out = append(out, dir)
		if exists(filepath.Join(dir, ".git")) || (d.Home != "" && dir == filepath.Clean(d.Home)) {
			return out
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return out
		}
		dir = parent
	}
}

// Skills is the skills.* group.
type Skills struct {
	Enabled             bool     // skills.enabled (default true)
	EnableSkillCommands bool     // skills.enableSkillCommands: offer /skill:<name> (default true)
	EnableCodexUser     bool     // skills.enableCodexUser (default true)
	EnableClaudeUser    bool     // skills.enableClaudeUser (default true)
	EnableClaudeProject bool     // skills.enableClaudeProject (default true)
	EnableNativeUser    bool     // skills.enablePiUser: gopi's and omp's user skills (default true)
	EnableNativeProject bool     // skills.enablePiProject: gopi's and omp's project skills (default true)
	CustomDirectories   []string // skills.customDirectories: more roots holding <name>/SKILL.md
	Ignored             []string // skills.ignoredSkills: name globs to leave out
	Include             []string // skills.includeSkills: name globs to keep (empty: all)
	DisabledExtensions  []string // disabledExtensions: "skill:<name>" entries turn a skill off
}

// Skills returns the skills.* settings.
func (s *Settings) Skills() Skills {
	return Skills{
		Enabled:             s.Bool("skills.enabled"),
		EnableSkillCommands: s.Bool("skills.enableSkillCommands"),
		EnableCodexUser:     s.Bool("skills.enableCodexUser"),
		EnableClaudeUser:    s.Bool("skills.enableClaudeUser"),
		EnableClaudeProject: s.Bool("skills.enableClaudeProject"),
		EnableNativeUser:    s.Bool("skills.enablePiUser"),
		EnableNativeProject: s.Bool("skills.enablePiProject"),
		CustomDirectories:   s.Strings("skills.customDirectories"),
		Ignored:             s.Strings("skills.ignoredSkills"),
		Include:             s.Strings("skills.includeSkills"),
		DisabledExtensions:  s.Strings("disabledExtensions"),
	}
}

// TTSR is the ttsr.* group: the stream rules that interrupt a response.
type TTSR struct {
	Enabled       bool   // ttsr.enabled (default true)
	ContextMode   string // ttsr.contextMode: discard (default) drops the interrupted response, keep keeps its text
	InterruptMode string // ttsr.interruptMode: always (default), prose-only, tool-only, never
	RepeatMode    string // ttsr.repeatMode: once (default) or after-gap
	RepeatGap     int    // ttsr.repeatGap: turns before a rule may fire again in after-gap mode (default 10)
}

// TTSR returns the ttsr.* settings.
func (s *Settings) TTSR() TTSR {
	return TTSR{
		Enabled:       s.Bool("ttsr.enabled"),
		ContextMode:   s.String("ttsr.contextMode"),
		InterruptMode: s.String("ttsr.interruptMode"),
		RepeatMode:    s.String("ttsr.repeatMode"),
		RepeatGap:     s.Int("ttsr.repeatGap"),
	}
}
