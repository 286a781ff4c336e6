package plugins

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ManifestPaths are where a plugin may describe itself, relative to its
// root, in the order they are tried: omp's own place, then Claude Code's.
var ManifestPaths = []string{".omp-plugin/plugin.json", ".claude-plugin/plugin.json"}

// Manifest is a plugin's plugin.json. Every field is optional: a plugin
// without one uses the conventional directories (skills/, commands/,
// hooks/, .mcp.json, .lsp.json).
type Manifest struct {
	Name        string  `json:"name,omitempty"`
	Version     string  `json:"version,omitempty"`
	Description string  `json:"description,omitempty"`
	Author      *Person `json:"author,omitempty"`
	Homepage    string  `json:"homepage,omitempty"`
	Repository  any     `json:"repository,omitempty"`
	License     string  `json:"license,omitempty"`
	// Commands and Skills are extra directories or files (a path or a
	// list of paths inside the plugin).
	Commands PathList `json:"commands,omitempty"`
	Skills   PathList `json:"skills,omitempty"`
	Agents   PathList `json:"agents,omitempty"`
	// Hooks, MCPServers and LSPServers are a path to a file inside the
	// plugin, or the configuration inline.
	Hooks      json.RawMessage `json:"hooks,omitempty"`
	MCPServers json.RawMessage `json:"mcpServers,omitempty"`
	LSPServers json.RawMessage `json:"lspServers,omitempty"`
}

// PathList is a path or a list of paths, each checked to stay inside the
// plugin (cleanRelative) and kept cleaned.
type PathList []string

// UnmarshalJSON accepts a string or an array of strings.
func (p *PathList) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	var list []string
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		list = []string{s}
	} else if err := json.Unmarshal(data, &list); err != nil {
		return errors.New("expected a path or a list of paths")
	}
	out := PathList{}
	for _, s := range list {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		c, err := cleanRelative(s)
		if err != nil {
			return err
		}
		out = append(out, c)
	}
	*p = out
	return nil
}

// ParseManifest reads and checks a plugin.json; file names it in errors.
func ParseManifest(data []byte, file string) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("plugin manifest %s: not valid JSON at byte %d: %v", file, se.Offset, err)
		}
		return nil, fmt.Errorf("plugin manifest %s: %v", file, err)
	}
	if m.Name != "" && !ValidName(m.Name) {
		return nil, fmt.Errorf("plugin manifest %s: %v", file, nameError("plugin", m.Name))
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"hooks", m.Hooks}, {"mcpServers", m.MCPServers}, {"lspServers", m.LSPServers}} {
		if _, _, err := pathOrObject(f.raw); err != nil {
			return nil, fmt.Errorf("plugin manifest %s: %s: %v", file, f.name, err)
		}
	}
	return &m, nil
}

// pathOrObject splits a component field: a relative path (checked), or
// an inline JSON object; both empty when the field is absent.
func pathOrObject(raw json.RawMessage) (string, map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", nil, err
		}
		c, err := cleanRelative(strings.TrimSpace(s))
		return c, nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return "", nil, errors.New("expected a path inside the plugin or an object")
	}
	return "", obj, nil
}
