package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopi-agent/gopi/core/tool"
)

// ToolPrefix starts the name of every MCP tool offered to the model.
const ToolPrefix = "mcp__"

// maxToolName is the longest tool name providers accept.
const maxToolName = 64

// unsafeName matches characters providers reject in tool names.
var unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-zA-Z0-9_-]`) })

// ToolName returns the name the model sees for a server's tool:
// mcp__<server>__<tool>, with characters outside [a-zA-Z0-9_-] replaced by
// '_' and cut to 64 characters.
func ToolName(server, name string) string {
	n := ToolPrefix + unsafeName().ReplaceAllString(server, "_") + "__" + unsafeName().ReplaceAllString(name, "_")
	if len(n) > maxToolName {
		n = n[:maxToolName]
	}
	return n
}

// Details are the structured details of an MCP tool result.
type Details struct {
	Server     string `json:"server"`                      // the configured server name
	Tool       string `json:"tool"`                        // the tool's name on the server
	Structured any    `json:"structuredContent,omitempty"` // the server's structured result, if any
}

// remoteTool is one server tool offered to the model.
type remoteTool struct {
	srv  *server
	name string // the tool's name on the server
	def  tool.Definition
}

// newRemoteTool adapts a listed tool: its input schema is cleaned for
// providers (cleanInputSchema) and parsed for argument validation. The
// warnings say what the cleaning changed; a nil tool is one left out.
func newRemoteTool(s *server, t *sdk.Tool) (*remoteTool, []string) {
	clean := cleanInputSchema(t.InputSchema)
	warnings := make([]string, len(clean.warnings))
	for i, w := range clean.warnings {
		warnings[i] = fmt.Sprintf("MCP server %q, tool %s: %s", s.cfg.Name, t.Name, w)
	}
	if clean.drop {
		return nil, warnings
	}
	schema := &tool.Schema{}
	if err := json.Unmarshal(clean.raw, schema); err != nil || schema.Type != "object" {
		// Validation is the server's job then (a property schema gopi
		// cannot read); the model still sees the cleaned schema.
		schema = &tool.Schema{Type: "object"}
	}
	schema.Raw = clean.raw
	desc := strings.TrimSpace(t.Description)
	if desc == "" {
		desc = t.Name
	}
	label := t.Title
	if label == "" && t.Annotations != nil {
		label = t.Annotations.Title
	}
	if label == "" {
		label = t.Name
	}
	return &remoteTool{srv: s, name: t.Name, def: tool.Definition{
		Name:        ToolName(s.cfg.Name, t.Name),
		Label:       s.cfg.Name + ": " + label,
		Description: fmt.Sprintf("[MCP server %s] %s", s.cfg.Name, desc),
		Parameters:  schema,
		Concurrency: tool.Shared,
		// The server's own readOnlyHint: permission gates pass such tools
		// unless the user names them.
		ReadOnly: t.Annotations != nil && t.Annotations.ReadOnlyHint,
	}}, warnings
}

// Definition describes the tool.
func (t *remoteTool) Definition() tool.Definition { return t.def }

// Server returns the configured name of the tool's server.
func (t *remoteTool) Server() string { return t.srv.cfg.Name }

// RemoteName returns the tool's own name on its server.
func (t *remoteTool) RemoteName() string { return t.name }

// Execute calls the tool on its server.
func (t *remoteTool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var res *sdk.CallToolResult
	err := t.srv.call(ctx, "the call to "+t.name, func(ctx context.Context, cs *sdk.ClientSession) error {
		var err error
		res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: t.name, Arguments: map[string]any(args)})
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, tool.ErrAborted
		}
		return nil, &tool.Error{Msg: err.Error(), Err: err}
	}
	out := &tool.Result{Content: convertContent(res.Content), IsError: res.IsError, Details: &Details{Server: t.srv.cfg.Name, Tool: t.name, Structured: res.StructuredContent}}
	if len(out.Content) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			out.Content = []tool.Content{tool.Text(string(b))}
		}
	}
	if len(out.Content) == 0 {
		out.Content = []tool.Content{tool.Text("(no output)")}
	}
	return out, nil
}

// convertContent turns MCP content blocks into result blocks: text and
// images as they are, everything else described in text.
func convertContent(in []sdk.Content) []tool.Content {
	var out []tool.Content
	for _, c := range in {
		switch c := c.(type) {
		case *sdk.TextContent:
			out = append(out, tool.Text(c.Text))
		case *sdk.ImageContent:
			out = append(out, &tool.ImageContent{Data: base64.StdEncoding.EncodeToString(c.Data), MIMEType: c.MIMEType})
		case *sdk.AudioContent:
			out = append(out, tool.Text(fmt.Sprintf("[audio %s, %d bytes, not shown]", c.MIMEType, len(c.Data))))
		case *sdk.ResourceLink:
			out = append(out, tool.Text(fmt.Sprintf("[resource %s: %s]", c.URI, firstNonEmpty(c.Title, c.Name, c.Description))))
		case *sdk.EmbeddedResource:
			if c.Resource != nil {
				out = append(out, tool.Text(resourceText(c.Resource)))
			}
		default:
			if b, err := json.Marshal(c); err == nil {
				out = append(out, tool.Text(string(b)))
			}
		}
	}
	return out
}

// resourceText renders one resource's contents as text.
func resourceText(r *sdk.ResourceContents) string {
	if r.Text != "" || len(r.Blob) == 0 {
		return r.Text
	}
	return fmt.Sprintf("[binary resource %s, %s, %d bytes]", r.URI, firstNonEmpty(r.MIMEType, "unknown type"), len(r.Blob))
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
