package geminiext

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/config"
)

// ManifestFile is the manifest's name inside an extension directory.
const ManifestFile = "gemini-extension.json"

// DefaultContextFile is the context file read from an extension whose
// manifest names none (when it exists).
const DefaultContextFile = "GEMINI.md"

// maxContextBytes caps one context file's text in the prompt.
const maxContextBytes = 32 << 10

// Level says where an extension was found.
type Level string

// Levels of extensions.
const (
	LevelUser    Level = "user"    // ~/.gemini/extensions
	LevelProject Level = "project" // <cwd>/.gemini/extensions
)

// Extension is one discovered manifest extension.
type Extension struct {
	Name         string              // manifest "name", else the directory name
	Dir          string              // absolute extension directory
	Manifest     string              // absolute path of gemini-extension.json
	Level        Level               // user or project
	Servers      []*config.MCPServer // its MCP servers, valid ones only, named as in the manifest
	ContextFiles []string            // absolute paths of its existing context files
	ExcludeTools []string            // tool names it asks to leave out, as written
}

// Set is what Discover found.
type Set struct {
	Extensions []Extension // user extensions first, then the project's; duplicates of a name dropped
	Warnings   []string    // invalid JSON and unusable server entries
}

// manifest is gemini-extension.json as read; fields of other types are
// ignored, as the reference does not validate them.
type manifest struct {
	Name            any                        `json:"name"`
	MCPServers      map[string]json.RawMessage `json:"mcpServers"`
	ContextFileName json.RawMessage            `json:"contextFileName"`
	ExcludeTools    []any                      `json:"excludeTools"`
}

// server is one mcpServers entry in Gemini CLI's shape: url is SSE,
// httpUrl Streamable HTTP; a "type" is honoured when given.
type server struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	HTTPURL string            `json:"httpUrl"`
	Headers map[string]string `json:"headers"`
	Timeout float64           `json:"timeout"`
}

// Root is one directory scanned for extensions.
type Root struct {
	Dir   string // the extensions directory
	Level Level  // whose it is
}

// Roots returns the two directories scanned, user first.
func Roots(home, cwd string) []Root {
	var out []Root
	if home != "" {
		out = append(out, Root{filepath.Join(home, ".gemini", "extensions"), LevelUser})
	}
	if cwd != "" {
		out = append(out, Root{filepath.Join(cwd, ".gemini", "extensions"), LevelProject})
	}
	return out
}

// Discover scans the user root under home and, with project, the
// project root under cwd.
func Discover(home, cwd string, project bool) *Set {
	set := &Set{}
	seen := map[string]bool{}
	for _, root := range Roots(home, cwd) {
		if root.Level == LevelProject && !project {
			continue
		}
		entries, err := os.ReadDir(root.Dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			ext, warn, ok := load(filepath.Join(root.Dir, e.Name()), root.Level)
			set.Warnings = append(set.Warnings, warn...)
			if !ok || seen[ext.Name] {
				continue
			}
			seen[ext.Name] = true
			set.Extensions = append(set.Extensions, ext)
		}
	}
	return set
}

// load reads one extension directory; ok is false when it has no usable
// manifest.
func load(dir string, level Level) (Extension, []string, bool) {
	path := filepath.Join(dir, ManifestFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return Extension{}, nil, false
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return Extension{}, []string{"Invalid JSON in " + path}, false
		}
		// Valid JSON with odd field types: keep what decoded.
	}
	ext := Extension{Name: nameOf(m.Name, filepath.Base(dir)), Dir: dir, Manifest: path, Level: level}
	var warns []string
	names := make([]string, 0, len(m.MCPServers))
	for n := range m.MCPServers {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		sv, err := newServer(n, m.MCPServers[n], ext)
		if err != nil {
			warns = append(warns, fmt.Sprintf("%v (in %s; the server was skipped)", err, path))
			continue
		}
		ext.Servers = append(ext.Servers, sv)
	}
	ext.ContextFiles = contextFiles(dir, m.ContextFileName)
	for _, t := range m.ExcludeTools {
		if s, ok := t.(string); ok && strings.TrimSpace(s) != "" {
			ext.ExcludeTools = append(ext.ExcludeTools, strings.TrimSpace(s))
		}
	}
	return ext, warns, true
}

// nameOf is the manifest's name when it has one, else the directory's.
func nameOf(v any, dir string) string {
	switch n := v.(type) {
	case nil:
		return dir
	case string:
		return n
	default:
		return fmt.Sprint(n)
	}
}

// newServer turns one mcpServers entry into a server gopi starts.
func newServer(name string, raw json.RawMessage, ext Extension) (*config.MCPServer, error) {
	var s server
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("Server %q: %v", name, err)
	}
	sub := func(v string) string {
		v = strings.ReplaceAll(v, "${extensionPath}", ext.Dir)
		return strings.ReplaceAll(v, "${/}", string(filepath.Separator))
	}
	out := &config.MCPServer{
		Name: name, Type: s.Type, Command: sub(s.Command), Env: s.Env, Cwd: sub(s.Cwd),
		Headers: s.Headers, Source: ext.Manifest, Level: config.Level(ext.Level), Literal: true,
	}
	for _, a := range s.Args {
		out.Args = append(out.Args, sub(a))
	}
	for k, v := range out.Env {
		out.Env[k] = sub(v)
	}
	switch {
	case s.HTTPURL != "":
		out.URL = s.HTTPURL
		if out.Type == "" {
			out.Type = config.MCPHTTP
		}
	case s.URL != "":
		out.URL = s.URL
		if out.Type == "" {
			out.Type = config.MCPSSE
		}
	}
	if out.Type == "" {
		out.Type = config.MCPStdio
	}
	if out.Cwd == "" && out.Type == config.MCPStdio {
		out.Cwd = ext.Dir
	}
	if s.Timeout > 0 {
		out.Timeout = time.Duration(s.Timeout * float64(time.Millisecond))
	}
	if err := config.ValidateMCPServer(name, out.Type, out.Command, out.URL); err != nil {
		return nil, err
	}
	return out, nil
}

// contextFiles resolves contextFileName (a string or a list of strings)
// against dir and keeps the files that exist inside it; without one,
// GEMINI.md when present.
func contextFiles(dir string, raw json.RawMessage) []string {
	var names []string
	var one string
	if len(raw) > 0 && json.Unmarshal(raw, &one) == nil {
		names = []string{one}
	} else if len(raw) > 0 {
		_ = json.Unmarshal(raw, &names)
	}
	if len(raw) == 0 || string(raw) == "null" {
		names = []string{DefaultContextFile}
	}
	var out []string
	for _, n := range names {
		if n == "" {
			continue
		}
		p := filepath.Clean(filepath.Join(dir, n))
		if rel, err := filepath.Rel(dir, p); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue // a context file outside its extension is not read
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// ReadContext reads a context file for the prompt, cut to the cap: its
// text, the whole file's size, and whether the text was cut.
func ReadContext(path string) (string, int64, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", 0, false, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxContextBytes))
	if err != nil {
		return "", 0, false, fmt.Errorf("reading %s: %w", path, err)
	}
	return string(data), st.Size(), st.Size() > int64(len(data)), nil
}
