package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopi-agent/gopi/core/tool"
)

// Scheme is the URL scheme of MCP resources in the read tool.
const Scheme = "mcp"

// ReadURI serves mcp:// URLs for the read tool (tool.HostURIHandler's
// read half): mcp:// lists the servers, mcp://<server> lists a server's
// resources, mcp://<server>/<uri> reads one resource.
func (m *Manager) ReadURI(ctx context.Context, url string) (*tool.HostURIContent, error) {
	rest, ok := strings.CutPrefix(url, Scheme+"://")
	if !ok {
		return nil, fmt.Errorf("%s is not an mcp:// URL", url)
	}
	if rest == "" {
		return &tool.HostURIContent{Content: m.listServers()}, nil
	}
	name, uri, _ := strings.Cut(rest, "/")
	s := m.byName[name]
	if s == nil {
		return nil, fmt.Errorf("no MCP server is named %q; mcp:// lists the servers", name)
	}
	if uri == "" {
		text, err := s.listResources(ctx)
		if err != nil {
			return nil, err
		}
		return &tool.HostURIContent{Content: text}, nil
	}
	var res *sdk.ReadResourceResult
	err := s.call(ctx, "the read of "+uri, func(ctx context.Context, cs *sdk.ClientSession) error {
		var err error
		res, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		return err
	})
	if err != nil {
		return nil, err
	}
	var parts []string
	contentType := ""
	for _, c := range res.Contents {
		parts = append(parts, resourceText(c))
		if contentType == "" {
			contentType = c.MIMEType
		}
	}
	return &tool.HostURIContent{Content: strings.Join(parts, "\n"), ContentType: contentType}, nil
}

// WriteURI refuses: MCP resources are read-only.
func (m *Manager) WriteURI(_ context.Context, url, _ string) error {
	return fmt.Errorf("%s is an MCP resource, which cannot be written", url)
}

// listServers renders the servers and their states.
func (m *Manager) listServers() string {
	var b strings.Builder
	for _, s := range m.Servers() {
		fmt.Fprintf(&b, "%s (%s, %s)", s.Name, s.Type, s.State)
		if s.Resources {
			fmt.Fprintf(&b, ": resources at mcp://%s", s.Name)
		}
		if s.Error != "" {
			fmt.Fprintf(&b, ": %s", s.Error)
		}
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		return "No MCP servers are configured.\n"
	}
	return b.String()
}

// listResources renders a server's resources and templates, one per line.
func (s *server) listResources(ctx context.Context) (string, error) {
	var b strings.Builder
	err := s.call(ctx, "the resource list", func(ctx context.Context, cs *sdk.ClientSession) error {
		init := cs.InitializeResult()
		if init != nil && init.Capabilities != nil && init.Capabilities.Resources == nil {
			return nil
		}
		for r, err := range cs.Resources(ctx, nil) {
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "mcp://%s/%s", s.cfg.Name, r.URI)
			if d := firstNonEmpty(r.Title, r.Name); d != "" {
				fmt.Fprintf(&b, "  %s", d)
			}
			if r.MIMEType != "" {
				fmt.Fprintf(&b, " (%s)", r.MIMEType)
			}
			b.WriteByte('\n')
		}
		for r, err := range cs.ResourceTemplates(ctx, nil) {
			if err != nil {
				break // templates are optional
			}
			fmt.Fprintf(&b, "mcp://%s/%s  (template) %s\n", s.cfg.Name, r.URITemplate, firstNonEmpty(r.Title, r.Name))
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if b.Len() == 0 {
		return fmt.Sprintf("MCP server %s offers no resources.\n", s.cfg.Name), nil
	}
	return b.String(), nil
}
