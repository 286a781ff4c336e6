package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tools/task"
	"github.com/gopi-agent/gopi/internal/regularfile"
)

// PluginPriority is the discovery priority of plugin skills and commands:
// below the claude provider's 80 and the agents/codex 70, as omp ranks
// its marketplace provider, so a user's own files win over a plugin's.
const PluginPriority = 65

// Contributions are what the enabled plugins give a session.
type Contributions struct {
	Roots []Root
	// SkillDirs hold <name>/SKILL.md skills.
	SkillDirs []config.ResourceDir
	// CommandDirs hold <name>.md commands, run as /<plugin>:<name>.
	CommandDirs []config.ResourceDir
	// MCPServers are named <plugin>:<server>; configured servers of the
	// same name win over them.
	MCPServers []*config.MCPServer
	// LSPFiles are the plugins' language server files, lowest priority
	// first (the order config.LSPConfig.Files merges in).
	LSPFiles []config.LSPFile
	// Extensions are extension modules (hooks): package.json's
	// omp.extensions (or pi.extensions) and the modules of hooks/.
	Extensions []string
	// AgentDirs hold agent definitions for the task tool (agents/, and
	// the manifest's "agents"), the project-scoped plugins' first.
	AgentDirs []task.ExtraDir
	// CommandHooks are Claude Code's command hooks (hooks/hooks.json);
	// AgentHooks makes them loop hooks.
	CommandHooks []CommandHook
	// Warnings are problems with single parts; the rest still loads.
	Warnings []error
}

// Collect reads what each root contributes.
func Collect(roots []Root) *Contributions {
	c := &Contributions{Roots: roots}
	for _, r := range roots {
		c.collect(r)
	}
	sort.SliceStable(c.AgentDirs, func(i, j int) bool { return c.AgentDirs[i].Project && !c.AgentDirs[j].Project })
	// Lower-precedence roots merge first.
	for i, j := 0, len(c.LSPFiles)-1; i < j; i, j = i+1, j-1 {
		c.LSPFiles[i], c.LSPFiles[j] = c.LSPFiles[j], c.LSPFiles[i]
	}
	return c
}

// warn records a problem of a root.
func (c *Contributions) warn(r Root, format string, args ...any) {
	c.Warnings = append(c.Warnings, fmt.Errorf("plugin %s: %s", r.ID, fmt.Sprintf(format, args...)))
}

// level maps a root's scope to a configuration level.
func (r Root) level() config.Level {
	if r.Scope == ScopeProject {
		return config.LevelProject
	}
	return config.LevelUser
}

// collect adds one root's contributions.
func (c *Contributions) collect(r Root) {
	man, err := readManifest(r.Path)
	if err != nil {
		c.Warnings = append(c.Warnings, fmt.Errorf("plugin %s: %w (the plugin was skipped)", r.ID, err))
		return
	}
	if man == nil {
		man = &Manifest{}
	}
	dirs := func(extra PathList, fallback string, always bool) []string {
		var out []string
		if always || len(extra) == 0 {
			out = append(out, filepath.Join(r.Path, fallback))
		}
		for _, p := range extra {
			d, err := resolveInside(r.Path, p)
			if err != nil {
				if !errors.Is(err, os.ErrNotExist) {
					c.warn(r, "%v (left out)", err)
				}
				continue
			}
			out = append(out, d)
		}
		return out
	}
	for _, d := range dirs(man.Skills, "skills", true) {
		c.SkillDirs = append(c.SkillDirs, config.ResourceDir{Path: d, Provider: config.ProviderPlugin, Priority: PluginPriority, Level: r.level()})
	}
	for _, d := range dirs(man.Commands, "commands", false) {
		c.CommandDirs = append(c.CommandDirs, config.ResourceDir{Path: d, Provider: config.ProviderPlugin, Priority: PluginPriority, Level: r.level(), NamePrefix: r.ID.Name + ":"})
	}
	for _, d := range dirs(man.Agents, "agents", true) {
		c.AgentDirs = append(c.AgentDirs, task.ExtraDir{Path: d, Project: r.Scope == ScopeProject})
	}
	c.collectMCP(r, man)
	c.collectLSP(r, man)
	c.collectExtensions(r)
	c.collectCommandHooks(r, man)
}

// componentFile resolves a manifest's path-or-object field: the inline
// object, or the file it names (else fallback), read and decoded.
func (c *Contributions) componentFile(r Root, raw json.RawMessage, fallback string) (map[string]json.RawMessage, string, bool) {
	rel, obj, err := pathOrObject(raw)
	if err != nil {
		c.warn(r, "%v", err)
		return nil, "", false
	}
	if obj != nil {
		return obj, filepath.Join(r.Path, ManifestPaths[1]), true
	}
	declared := rel != ""
	if !declared {
		rel = fallback
	}
	file, err := resolveInside(r.Path, rel)
	if err != nil {
		if declared || !errors.Is(err, os.ErrNotExist) {
			c.warn(r, "%v", err)
		}
		return nil, "", false
	}
	data, err := regularfile.Read(file)
	if err != nil {
		c.warn(r, "%v", err)
		return nil, "", false
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(config.StripJSONC(data), &doc); err != nil {
		c.warn(r, "%s is not valid JSON: %v (left out)", file, err)
		return nil, "", false
	}
	return doc, file, true
}

// collectMCP reads the plugin's MCP servers (the manifest's mcpServers,
// else .mcp.json; nested under "mcpServers" or flat).
func (c *Contributions) collectMCP(r Root, man *Manifest) {
	doc, file, ok := c.componentFile(r, man.MCPServers, ".mcp.json")
	if !ok {
		return
	}
	if nested, has := doc["mcpServers"]; has {
		doc = nil
		if err := json.Unmarshal(nested, &doc); err != nil {
			c.warn(r, "%s: \"mcpServers\" is not an object (left out)", file)
			return
		}
	}
	names := make([]string, 0, len(doc))
	for n := range doc {
		names = append(names, n)
	}
	sort.Strings(names)
	sub := func(s string) string { return substituteRoot(s, r.Path) }
	for _, n := range names {
		var raw config.MCPServerEntry
		if err := json.Unmarshal(doc[n], &raw); err != nil {
			c.warn(r, "MCP server %q in %s: %v (left out)", n, file, err)
			continue
		}
		if raw.Command == "" && raw.URL == "" {
			c.warn(r, "MCP server %q in %s has neither \"command\" nor \"url\" (left out)", n, file)
			continue
		}
		s := &config.MCPServer{
			Name: r.ID.Name + ":" + n, Type: raw.Type, Command: sub(raw.Command), Cwd: sub(raw.Cwd), URL: sub(raw.URL),
			Headers: raw.Headers, Enabled: raw.Enabled, Source: file, Level: r.level(),
		}
		if s.Type == "" {
			s.Type = config.MCPStdio
			if raw.URL != "" {
				s.Type = config.MCPHTTP
			}
		}
		if strings.HasPrefix(s.Command, "./") || strings.HasPrefix(s.Command, "../") {
			s.Command = filepath.Join(filepath.Dir(file), s.Command)
		}
		if s.Cwd == "" && s.Type == config.MCPStdio {
			s.Cwd = r.Path
		}
		for _, a := range raw.Args {
			s.Args = append(s.Args, sub(a))
		}
		if raw.Env != nil {
			s.Env = map[string]string{}
			for k, v := range raw.Env {
				s.Env[k] = sub(v)
			}
		}
		if raw.Timeout > 0 {
			s.Timeout = time.Duration(raw.Timeout * float64(time.Millisecond))
		}
		c.MCPServers = append(c.MCPServers, s)
	}
}

// collectLSP reads the plugin's language servers (the manifest's
// lspServers, else .lsp.json; under "servers" or flat).
func (c *Contributions) collectLSP(r Root, man *Manifest) {
	doc, file, ok := c.componentFile(r, man.LSPServers, ".lsp.json")
	if !ok {
		return
	}
	if nested, has := doc["servers"]; has {
		doc = nil
		if err := json.Unmarshal(nested, &doc); err != nil {
			c.warn(r, "%s: \"servers\" is not an object (left out)", file)
			return
		}
	}
	f := config.LSPFile{Path: file, Level: r.level(), Servers: map[string]map[string]any{}}
	for name, raw := range doc {
		var m map[string]any
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		if cmd, ok := m["command"].(string); ok {
			m["command"] = substituteRoot(cmd, r.Path)
		}
		if args, ok := m["args"].([]any); ok {
			for i, a := range args {
				if s, ok := a.(string); ok {
					args[i] = substituteRoot(s, r.Path)
				}
			}
		}
		f.Servers[name] = m
	}
	if len(f.Servers) > 0 {
		c.LSPFiles = append(c.LSPFiles, f)
	}
}

// collectExtensions finds the plugin's extension modules: package.json's
// omp.extensions (else pi.extensions), and the modules in hooks/ (and
// its pre/ and post/ directories). Entries must stay inside the plugin.
func (c *Contributions) collectExtensions(r Root) {
	if data, err := regularfile.Read(filepath.Join(r.Path, "package.json")); err == nil {
		var pkg struct {
			OMP struct {
				Extensions []string `json:"extensions"`
			} `json:"omp"`
			PI struct {
				Extensions []string `json:"extensions"`
			} `json:"pi"`
		}
		if err := json.Unmarshal(data, &pkg); err != nil {
			c.warn(r, "package.json is not valid JSON: %v", err)
		}
		list := pkg.OMP.Extensions
		if len(list) == 0 {
			list = pkg.PI.Extensions
		}
		for _, e := range list {
			p, err := resolveInside(r.Path, e)
			if err != nil {
				c.warn(r, "extension %v (left out)", err)
				continue
			}
			c.Extensions = append(c.Extensions, p)
		}
	}
	for _, sub := range []string{"hooks", "hooks/pre", "hooks/post"} {
		dir, err := resolveInside(r.Path, sub)
		if err != nil {
			continue
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			n := e.Name()
			ext := filepath.Ext(n)
			if e.IsDir() || strings.HasPrefix(n, ".") || strings.HasSuffix(n, ".d.ts") || (ext != ".ts" && ext != ".js" && ext != ".mjs" && ext != ".mts") {
				continue
			}
			p, err := resolveInside(r.Path, sub+"/"+n)
			if err != nil {
				c.warn(r, "hook %v (left out)", err)
				continue
			}
			c.Extensions = append(c.Extensions, p)
		}
	}
}

// substituteRoot replaces ${CLAUDE_PLUGIN_ROOT} and ${OMP_PLUGIN_ROOT}
// with the plugin's directory.
func substituteRoot(s, root string) string {
	if !strings.Contains(s, "_PLUGIN_ROOT}") {
		return s
	}
	return strings.NewReplacer("${CLAUDE_PLUGIN_ROOT}", root, "${OMP_PLUGIN_ROOT}", root).Replace(s)
}

// InstalledAgentDirs returns the agent directories of cfg's enabled
// installed plugins, for the listings of agents (gopi agents, /agents);
// a session also has those of --plugin-dir.
func InstalledAgentDirs(cfg *config.Config) []task.ExtraDir {
	roots, _ := Roots(SourcesFor(cfg), nil)
	return Collect(roots).AgentDirs
}
