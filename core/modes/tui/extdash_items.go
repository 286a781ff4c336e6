package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/extensions"
	"github.com/gopi-agent/gopi/core/mcp"
	"github.com/gopi-agent/gopi/core/prompt"
	"github.com/gopi-agent/gopi/core/rules"
	"github.com/gopi-agent/gopi/core/skills"
	"github.com/gopi-agent/gopi/core/templates"
)

// What the Extension Control Center lists: everything that extends the
// session, each entry with its kind, its source ("provider", as omp calls
// the agents' directories it reads) and its state. An entry's id is
// "<kind>:<name>", the form of the disabledExtensions setting.

// Kinds of entries, in the order the ALL tab groups them, with their
// group titles.
var extKinds = []struct{ id, title string }{
	{"extension-module", "Extension Modules"},
	{"skill", "Skills"},
	{"tool", "Tools"},
	{"slash-command", "Commands"},
	{"rule", "Rules"},
	{"mcp", "MCP Servers"},
	{"hook", "Hooks"},
	{"prompt", "Prompts"},
	{"context-file", "Context"},
	{"instruction", "Instructions"},
}

// extProviders names the sources, highest priority first (the order of
// the tabs with equal counts).
var extProviders = []struct{ id, name string }{
	{config.ProviderNative, "gopi"},
	{config.ProviderClaude, "Claude Code"},
	{config.ProviderAgents, "Agents (standard)"},
	{config.ProviderCodex, "OpenAI Codex"},
	{"gemini", "Gemini CLI"},
	{config.ProviderOpenCode, "OpenCode"},
	{config.ProviderCursor, "Cursor"},
	{config.ProviderWindsurf, "Windsurf"},
	{config.ProviderCline, "Cline"},
	{config.ProviderCustom, "Custom directories"},
	{"agents-md", "AGENTS.md"},
	{"mcp-json", "MCP Config"},
}

// providerName returns a source's display name.
func providerName(id string) string {
	for _, p := range extProviders {
		if p.id == id {
			return p.name
		}
	}
	return id
}

// Entry states.
const (
	stateActive   = "active"
	stateDisabled = "disabled"
	stateShadowed = "shadowed"
)

// extItem is one entry of the Extension Control Center.
type extItem struct {
	kind, name  string
	description string
	trigger     string // how it is set off: /command, globs, transport
	path        string
	provider    string
	level       string // user, project or native
	shadowed    bool   // hidden by an entry of the same name
	state       string // see state*
	reason      string // why disabled: "manually disabled" or "provider disabled"
	// preview is the kind's detail section: a title and its lines.
	previewTitle string
	preview      []string
}

// id is the entry's key in disabledExtensions.
func (it *extItem) id() string { return it.kind + ":" + it.name }

// extSources is what the inventory is read from: the session's
// configuration and what it found at start.
type extSources struct {
	cfg        *config.Config
	cwd        string
	extensions []string // paths of the extension modules loaded
	mcp        mcp.Status
}

// loadExtItems lists everything extending the session, the entries
// turned off included (their states are the centre's to set).
func loadExtItems(src extSources) []*extItem {
	var out []*extItem
	add := func(it *extItem) { out = append(out, it) }
	for _, p := range src.extensions {
		kind, provider := moduleKind(p)
		add(&extItem{kind: kind, name: extensions.NameOf(p), path: p, provider: provider, level: levelOf(p, src.cwd)})
	}
	settings := src.cfg.Settings
	for _, sk := range allSkills(src) {
		add(&extItem{kind: "skill", name: sk.Name, description: sk.Description, trigger: strings.Join(sk.Globs, ", "), path: sk.Path,
			provider: sk.Provider, level: string(sk.Level), previewTitle: "Instruction:", preview: fileHead(sk.Path, 15)})
	}
	dirs := src.cfg.Dirs
	dirs.Cwd = src.cwd
	rs, _ := rules.Discover(dirs.RuleDirs())
	for _, r := range rs.All {
		trigger := strings.Join(r.Globs, ", ")
		if trigger == "" && r.AlwaysApply {
			trigger = "always"
		}
		add(&extItem{kind: "rule", name: r.Name, description: r.Description, trigger: trigger, path: r.Path, provider: r.Provider, level: string(r.Level),
			previewTitle: "Rule:", preview: headLines(r.Content, 15)})
	}
	for _, s := range src.mcp.Servers {
		typ := s.Type
		if typ == "" {
			typ = "stdio"
		}
		preview := []string{"  Transport:  " + typ, "  State:      " + string(s.State)}
		if len(s.Tools) > 0 {
			preview = append(preview, "  Tools:      "+itoa(len(s.Tools)))
		}
		if s.Error != "" {
			preview = append(preview, "  Error:      "+s.Error)
		}
		provider, level := mcpProvider(s.Source, src.cwd)
		add(&extItem{kind: "mcp", name: s.Name, description: s.Server, trigger: typ, path: s.Source, provider: provider, level: level,
			previewTitle: "Connection:", preview: preview})
	}
	ts, _ := templates.Discover(dirs.TemplateDirs())
	for _, t := range ts.List() {
		kind, _, _ := strings.Cut(t.ExtensionID(), ":")
		add(&extItem{kind: kind, name: t.Name, description: t.Description, trigger: "/" + t.Name, path: t.Path, provider: t.Provider, level: string(t.Level)})
	}
	for _, f := range contextFiles(src) {
		name := filepath.Base(f.Path)
		level := string(f.Level)
		desc := "Project-level context"
		if f.Level == prompt.LevelUser {
			desc = "User-level context"
		}
		add(&extItem{kind: "context-file", name: level + ":" + name, description: desc, trigger: level, path: f.Path, provider: contextProvider(f.Source), level: level,
			previewTitle: "Preview:", preview: headLines(f.Content, 20)})
	}
	// Modules, tools and MCP servers turned off are not started: they are
	// listed from the setting, so they can be turned on again.
	for _, d := range settings.Strings("disabledExtensions") {
		kind, name, _ := strings.Cut(d, ":")
		if (kind == "extension-module" || kind == "tool" || kind == "mcp") && !slices.ContainsFunc(out, func(it *extItem) bool { return it.id() == d }) {
			add(&extItem{kind: kind, name: name, provider: config.ProviderNative, level: "native"})
		}
	}
	return out
}

// extState is an entry's state: turned off by name first, then hidden by
// another of its name, then off with its provider.
func extState(it *extItem, disabled, providersOff []string) string {
	switch {
	case slices.Contains(disabled, it.id()):
		return stateDisabled
	case it.shadowed:
		return stateShadowed
	case slices.Contains(providersOff, it.provider):
		return stateDisabled
	}
	return stateActive
}

// displayName is how the list names an entry (a context file by its
// file name; its id keeps the level).
func (it *extItem) displayName() string {
	if it.kind == "context-file" {
		_, n, _ := strings.Cut(it.name, ":")
		return n
	}
	return it.name
}

// allSkills discovers the skills again with none left out by
// disabledExtensions, so the turned-off ones are listed too (rules and
// templates are discovered again for the same reason).
func allSkills(src extSources) []*skills.Skill {
	st := src.cfg.Settings.Skills()
	st.DisabledExtensions = nil
	st.CustomDirectories = slices.Clone(st.CustomDirectories)
	for i, d := range st.CustomDirectories {
		if strings.HasPrefix(d, "~/") {
			d = filepath.Join(src.cfg.Home, d[2:])
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(src.cwd, d)
		}
		st.CustomDirectories[i] = d
	}
	dirs := src.cfg.Dirs
	dirs.Cwd = src.cwd
	set, _ := skills.Discover(skills.Options{Roots: dirs.SkillDirs(), Settings: st})
	return set.List()
}

// contextFiles finds the context files (AGENTS.md, CLAUDE.md, …) as the
// system prompt does.
func contextFiles(src extSources) []prompt.ContextFile {
	files, _ := prompt.DiscoverContextFiles(prompt.DiscoverOptions{Cwd: src.cwd, Home: src.cfg.Home,
		UserDirs: prompt.DefaultUserDirs(src.cfg.Home, src.cfg.AgentDir)})
	return files
}

// contextProvider maps a context file's convention to its provider.
func contextProvider(source string) string {
	switch source {
	case "gopi", "omp":
		return config.ProviderNative
	case "claude", "codex", "gemini":
		return source
	}
	return "agents-md"
}

// mcpProvider guesses an MCP server's provider and level from the file
// that defined it.
func mcpProvider(file, cwd string) (provider, level string) {
	level = levelOf(file, cwd)
	slashed := filepath.ToSlash(file)
	switch {
	case filepath.Base(file) == ".mcp.json":
		return "mcp-json", level
	case strings.Contains(slashed, "/.claude"):
		return config.ProviderClaude, level
	case strings.Contains(slashed, "/.cursor/"):
		return config.ProviderCursor, level
	case strings.Contains(slashed, "/.codex/"):
		return config.ProviderCodex, level
	case strings.Contains(slashed, "/.gemini/"):
		return "gemini", level
	}
	return config.ProviderNative, level
}

// moduleKind tells a custom tool module (a file of a tools/ directory:
// .gopi/tools, .claude/tools, …) from an extension module, with its
// provider.
func moduleKind(path string) (kind, provider string) {
	dir := filepath.Dir(path)
	if filepath.Base(dir) != "tools" {
		dir = filepath.Dir(dir) // <tools>/<name>/index.ts
	}
	if filepath.Base(dir) != "tools" {
		return "extension-module", config.ProviderNative
	}
	switch filepath.Base(filepath.Dir(dir)) {
	case ".claude":
		return "tool", config.ProviderClaude
	case ".codex":
		return "tool", config.ProviderCodex
	}
	return "tool", config.ProviderNative
}

// levelOf is "project" for a path under cwd, else "user".
func levelOf(path, cwd string) string {
	if rel, err := filepath.Rel(cwd, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "project"
	}
	return "user"
}

// fileHead returns the first n lines of a Markdown file's body, its
// front matter left out.
func fileHead(path string, n int) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return headLines(dropFrontMatter(string(b)), n)
}

// dropFrontMatter removes a leading "---" block.
func dropFrontMatter(s string) string {
	s = strings.TrimPrefix(s, "\ufeff")
	rest, ok := strings.CutPrefix(strings.ReplaceAll(s, "\r\n", "\n"), "---\n")
	if !ok {
		return s
	}
	if i := strings.Index(rest, "\n---"); i >= 0 {
		rest = rest[i+4:]
		_, after, _ := strings.Cut(rest, "\n")
		return after
	}
	return s
}

// headLines returns the first n lines of text, trimmed, with a last line
// saying how many were left out.
func headLines(text string, n int) []string {
	lines := strings.Split(strings.TrimSpace(clean(strings.ReplaceAll(text, "\t", "    "))), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	if len(lines) > n {
		rest := len(lines) - n
		lines = append(lines[:n:n], "… "+itoa(rest)+" more lines")
	}
	return lines
}
