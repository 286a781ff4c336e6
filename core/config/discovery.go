package config

import "strings"

// Tool discovery modes (tools.discoveryMode).
const (
	DiscoveryOff     = "off"      // every tool is offered
	DiscoveryMCPOnly = "mcp-only" // MCP tools are hidden until searched for
	DiscoveryAll     = "all"      // MCP tools and non-essential built-ins are hidden
)

// DefaultEssentialTools are the built-ins "all" mode keeps offered when
// tools.essentialOverride is empty.
var DefaultEssentialTools = []string{"read", "bash", "edit"}

// Discovery is how a session hides tools for search_tool_bm25 to find.
type Discovery struct {
	// Mode is the effective mode: tools.discoveryMode, or mcp-only when
	// that is off and the older mcp.discoveryMode is true.
	Mode string
	// Essential are the built-ins "all" mode keeps offered
	// (tools.essentialOverride, else DefaultEssentialTools).
	Essential []string
	// DefaultServers are MCP servers whose tools are offered from the
	// start (mcp.discoveryDefaultServers).
	DefaultServers []string
}

// DiscoverySettings returns the tool discovery settings of s.
func DiscoverySettings(s *Settings) Discovery {
	d := Discovery{Mode: s.String("tools.discoveryMode")}
	switch d.Mode {
	case DiscoveryMCPOnly, DiscoveryAll:
	default:
		d.Mode = DiscoveryOff
		if s.Bool("mcp.discoveryMode") {
			d.Mode = DiscoveryMCPOnly
		}
	}
	for _, n := range s.Strings("tools.essentialOverride") {
		if n = strings.TrimSpace(n); n != "" {
			d.Essential = append(d.Essential, n)
		}
	}
	if len(d.Essential) == 0 {
		d.Essential = append([]string(nil), DefaultEssentialTools...)
	}
	for _, n := range s.Strings("mcp.discoveryDefaultServers") {
		if n = strings.TrimSpace(n); n != "" {
			d.DefaultServers = append(d.DefaultServers, n)
		}
	}
	return d
}
