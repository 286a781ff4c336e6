package agentsession

import (
	"errors"
	"fmt"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/geminiext"
	"github.com/gopi-agent/gopi/core/prompt"
	"github.com/gopi-agent/gopi/core/tool"
)

// geminiParts is what the Gemini manifest extensions give a session.
type geminiParts struct {
	set      *geminiext.Set
	servers  []*config.MCPServer   // their MCP servers, started after the configured ones
	context  []prompt.ContextFile  // their context files, for the system prompt
	excluded *geminiext.Exclusions // the tools they leave out
}

// discoverGemini finds the Gemini manifest extensions (none with
// Options.NoGeminiExtensions). A project's extensions start MCP servers
// only in a trusted project with mcp.enableProjectConfig on, as the
// project's own mcp.json files.
func (s *Session) discoverGemini() {
	if s.opts.NoGeminiExtensions {
		return
	}
	set := geminiext.Discover(s.cfg.Home, s.opts.Cwd, true)
	g := &geminiParts{set: set}
	for _, w := range set.Warnings {
		s.res.warnings = append(s.res.warnings, errors.New(w))
	}
	projectServers := s.cfg.ProjectTrusted() && s.cfg.Settings.Bool("mcp.enableProjectConfig")
	for _, e := range set.Extensions {
		if e.Level == geminiext.LevelUser || projectServers {
			g.servers = append(g.servers, e.Servers...)
		}
		for _, p := range e.ContextFiles {
			text, size, cut, err := geminiext.ReadContext(p)
			if err != nil {
				s.res.warnings = append(s.res.warnings, fmt.Errorf("Gemini extension %s: context file: %w", e.Name, err))
				continue
			}
			level := prompt.LevelUser
			if e.Level == geminiext.LevelProject {
				level = prompt.LevelProject
			}
			g.context = append(g.context, prompt.ContextFile{Path: p, Content: text, Level: level, Source: "gemini", Size: size, Truncated: cut})
		}
	}
	var warns []string
	g.excluded, warns = set.Exclusions()
	for _, w := range warns {
		s.res.warnings = append(s.res.warnings, errors.New(w))
	}
	s.res.gemini = g
}

// geminiServers returns the extensions' MCP servers.
func (s *Session) geminiServers() []*config.MCPServer {
	if s.res.gemini == nil {
		return nil
	}
	return s.res.gemini.servers
}

// geminiContext returns the extensions' context files.
func (s *Session) geminiContext() []prompt.ContextFile {
	if s.res.gemini == nil {
		return nil
	}
	return s.res.gemini.context
}

// excluded reports whether an extension's excludeTools leaves tl out.
func (s *Session) excluded(tl tool.Tool) bool {
	if s.res.gemini == nil {
		return false
	}
	remote := ""
	if r, ok := tl.(interface{ RemoteName() string }); ok {
		remote = r.RemoteName()
	}
	return s.res.gemini.excluded.Excludes(tl.Definition().Name, remote)
}
