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
// that fail are recorded in MCPStatus; the session starts anyway.
func (s *Session) startMCP(ctx context.Context) {
	switch {
	case s.opts.sharedMCP != nil:
		s.mcp = s.opts.sharedMCP
	case s.opts.NoMCP:
		return
	default:
		mc := s.cfg.MCP()
		servers, errs := mergeMCPServers(s.opts.MCPServers, mc.Servers)
		connect, call := s.cfg.MCPTimeouts()
		s.mcp = mcp.New(mcp.Options{
			Servers:        servers,
			ConfigErrors:   append(errs, mc.Errors...),
			Disabled:       mc.Disabled,
			Resolve:        s.cfg.ResolveMCPValue,
			Environ:        s.cfg.Env.Environ(),
			Cwd:            s.opts.Cwd,
			ConnectTimeout: connect,
			CallTimeout:    call,
			HTTPClient:     s.opts.HTTPClient,
		})
		s.ownsMCP = true
		s.mcp.Start(ctx)
	}
	s.toolEnv.SetSchemeReader(mcp.Scheme, s.mcp)
}

// mcpTools returns the MCP servers' tools (none without servers).
func (s *Session) mcpTools() []tool.Tool {
	if s.mcp == nil {
		return nil
	}
	return s.mcp.Tools()
}

// closeMCP shuts the session's own MCP servers down.
func (s *Session) closeMCP() {
	if s.mcp != nil && s.ownsMCP {
		_ = s.mcp.Close()
	}
}

// MCP returns the session's MCP manager, nil when MCP is off (NoMCP).
func (s *Session) MCP() *mcp.Manager { return s.mcp }

// MCPStatus describes the MCP servers (state, tools, errors) and the
// configuration problems found, for /mcp and RPC's get_mcp_servers.
func (s *Session) MCPStatus() mcp.Status {
	if s.mcp == nil {
		return mcp.Status{Servers: []mcp.ServerInfo{}}
	}
	return s.mcp.Status()
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
