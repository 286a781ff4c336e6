package agentsession

import (
	"context"
	"fmt"

	"github.com/gopi-agent/gopi/core/config"

	"github.com/gopi-agent/gopi/core/mcp"
	"github.com/gopi-agent/gopi/core/tool"
)

// startMCP connects the configured MCP servers (unless NoMCP) and serves
// mcp:// reads from them. A subagent shares its parent's servers. Servers
// that fail are recorded in Resources.MCPStatus; the session starts anyway.
func (s *Session) startMCP(ctx context.Context) {
	switch {
	case s.opts.sharedMCP != nil:
		s.res.mcp = s.opts.sharedMCP
	case s.opts.NoMCP:
		return
	default:
		mc := s.cfg.MCP()
		// Gemini manifests' servers come after the configured ones: a
		// name both define is the configuration's; plugins' after both.
		servers, errs := mergeMCPServers(s.opts.MCPServers, append(mc.Servers, s.geminiServers()...))
		if s.opts.Plugins != nil {
			servers = appendPluginServers(servers, s.opts.Plugins.MCPServers)
		}
		connect, call := s.cfg.MCPTimeouts()
		s.res.mcp = mcp.New(mcp.Options{
			Servers:        servers,
			ConfigErrors:   append(errs, mc.Errors...),
			Disabled:       offIn(s.cfg.Settings).mcpServers(mc.Disabled),
			Resolve:        s.cfg.ResolveMCPValue,
			Environ:        s.cfg.Env.Environ(),
			Cwd:            s.opts.Cwd,
			ConnectTimeout: connect,
			CallTimeout:    call,
			HTTPClient:     s.opts.HTTPClient,
		})
		s.res.ownsMCP = true
		s.res.mcp.Start(ctx)
	}
	s.toolEnv.SetSchemeReader(mcp.Scheme, s.res.mcp)
}

// mcpTools returns the MCP servers' tools (none without servers).
func (s *Session) mcpTools() []tool.Tool {
	if s.res.mcp == nil {
		return nil
	}
	return s.res.mcp.Tools()
}

// closeMCP shuts the session's own MCP servers down.
func (s *Session) closeMCP() {
	if s.res.mcp != nil && s.res.ownsMCP {
		_ = s.res.mcp.Close()
	}
}

// mergeMCPServers puts the given servers (checked like a file's entries)
// before the configured ones; a configured server whose name is taken is
// left out.
func mergeMCPServers(given, configured []*config.MCPServer) ([]*config.MCPServer, []error) {
	var out []*config.MCPServer
	var errs []error
	taken := map[string]bool{}
	for _, sv := range given {
		if err := config.ValidateMCPServer(sv.Name, sv.Type, sv.Command, sv.URL); err != nil {
			errs = append(errs, fmt.Errorf("%w (in the session's options)", err))
			continue
		}
		if taken[sv.Name] {
			continue
		}
		c := *sv
		if c.Type == "" {
			c.Type = config.MCPStdio
		}
		if c.Source == "" {
			c.Source = "session options"
		}
		taken[c.Name] = true
		out = append(out, &c)
	}
	for _, sv := range configured {
		if !taken[sv.Name] {
			out = append(out, sv)
		}
	}
	return out, errs
}

// appendPluginServers adds the plugins' servers whose names are not
// taken (their names, <plugin>:<server>, are not checked against the
// configuration files' naming rule: the colon is how omp names them).
func appendPluginServers(servers, fromPlugins []*config.MCPServer) []*config.MCPServer {
	taken := map[string]bool{}
	for _, sv := range servers {
		taken[sv.Name] = true
	}
	for _, sv := range fromPlugins {
		if !taken[sv.Name] && sv.IsEnabled() {
			taken[sv.Name] = true
			servers = append(servers, sv)
		}
	}
	return servers
}
