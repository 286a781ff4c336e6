package config

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// MCP configuration files, relative to their directories: the agent
// directory and a project's config directory hold MCPFile; a project's
// root may hold the portable MCPRootFiles other MCP clients read too.
const MCPFile = "mcp.json"

// MCPRootFiles are the standalone files read in the project root, in
// order, after gopi's and omp's own.
var MCPRootFiles = []string{"mcp.json", ".mcp.json"}

// MCP transports.
const (
	MCPStdio = "stdio" // a child process spoken to over stdin/stdout (the default)
	MCPHTTP  = "http"  // Streamable HTTP
	MCPSSE   = "sse"   // the older HTTP+SSE transport
)

// Timeouts of MCP servers.
const (
	DefaultMCPConnectTimeout = 30 * time.Second  // connecting and listing tools, unless the server's "timeout" or mcp.connectTimeoutMs says otherwise
	DefaultMCPCallTimeout    = 120 * time.Second // one tool call or resource read, unless mcp.callTimeoutMs says otherwise
	mcpCommandTimeout        = 10 * time.Second  // a "!command" value in env or headers
)

// mcpName is the rule for server names.
var mcpName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,100}$`) })

// MCPServer is one configured MCP server.
type MCPServer struct {
	Name    string            // the key in mcpServers
	Type    string            // MCPStdio, MCPHTTP or MCPSSE (filled in: stdio when omitted)
	Command string            // stdio: the program
	Args    []string          // stdio: its arguments
	Env     map[string]string // stdio: extra environment, values not yet resolved (ResolveMCPValue)
	Cwd     string            // stdio: working directory ("" = the session's)
	URL     string            // http/sse: the endpoint
	Headers map[string]string // http/sse: extra request headers, values not yet resolved
	Enabled *bool             // false skips the server
	Timeout time.Duration     // connection timeout; 0 = the default
	Source  string            // the file it was read from
	Level   Level             // user or project
	// Literal marks env and header values to be used as written, without
	// ResolveMCPValue (servers an editor or an embedder passes).
	Literal bool
}

// IsEnabled reports whether the server should be started.
func (s *MCPServer) IsEnabled() bool { return s.Enabled == nil || *s.Enabled }

// MCPConfig is the result of reading every MCP file.
type MCPConfig struct {
	Servers  []*MCPServer // valid, enabled, not disabled servers; the first definition of a name wins
	Disabled []string     // names from disabledServers in the user files
	Errors   []error      // invalid entries and unreadable files (the rest still loads)
	Files    []string     // the files that were read, in priority order
}

// MCPTimeouts returns the connect and call timeouts of MCP servers
// (mcp.connectTimeoutMs, mcp.callTimeoutMs; a non-positive value keeps
// the default).
func (c *Config) MCPTimeouts() (connect, call time.Duration) {
	connect, call = DefaultMCPConnectTimeout, DefaultMCPCallTimeout
	if ms := c.Settings.Float("mcp.connectTimeoutMs"); ms > 0 {
		connect = time.Duration(ms * float64(time.Millisecond))
	}
	if ms := c.Settings.Float("mcp.callTimeoutMs"); ms > 0 {
		call = time.Duration(ms * float64(time.Millisecond))
	}
	return connect, call
}

// mcpFile is one candidate file with how it is read.
type mcpFile struct {
	path     string
	level    Level
	expand   bool // ${VAR} expansion at discovery (the standalone root files)
	denylist bool // its disabledServers counts (user files)
}

// mcpFiles lists the candidate files, highest priority first: gopi's
// project and user files, omp's, then the project root's standalone
// files; the project's only when project is true.
func (c *Config) mcpFiles(project bool) []mcpFile {
	var out []mcpFile
	for _, s := range c.Dirs.Sources() {
		if s.ID != SourceGopi && s.ID != SourceOMP {
			continue
		}
		if project && s.ProjectName != "" {
			out = append(out, mcpFile{path: filepath.Join(c.Cwd, s.ProjectName, MCPFile), level: LevelProject})
		}
		if s.UserDir != "" {
			out = append(out, mcpFile{path: filepath.Join(s.UserDir, MCPFile), level: LevelUser, denylist: true})
		}
	}
	if project {
		for _, name := range MCPRootFiles {
			out = append(out, mcpFile{path: filepath.Join(c.Cwd, name), level: LevelProject, expand: true})
		}
	}
	return out
}

// MCP reads the MCP configuration files. Definitions are not merged: the
// first file (in mcpFiles order) that defines a name wins. Servers named
// in a user file's disabledServers, or with "enabled": false, are left
// out. Invalid entries become Errors naming the server and the problem.
// The project's files are read only when mcp.enableProjectConfig is on
// and the project is trusted, and their servers only as they were when
// it was (see trustedServer): a server the project adds or changes later
// (a pull, or the agent writing .mcp.json) waits for the next question.
func (c *Config) MCP() *MCPConfig {
	out := c.readMCP(c.projectMCPEnabled() && c.ProjectTrusted(), true)
	if !c.ProjectTrusted() || c.trustedWholesale() {
		return out
	}
	granted := c.grantedServers()
	kept := out.Servers[:0]
	for _, s := range out.Servers {
		if s.Level != LevelProject || granted[s.Name] {
			kept = append(kept, s)
		}
	}
	out.Servers = kept
	return out
}

// projectMCPEnabled reports the mcp.enableProjectConfig setting.
func (c *Config) projectMCPEnabled() bool {
	return c.Settings == nil || c.Settings.Bool("mcp.enableProjectConfig")
}

// readMCP reads the MCP files (the project's too when project is set);
// expand false leaves ${VAR} references of the standalone files as
// written.
func (c *Config) readMCP(project, expand bool) *MCPConfig {
	out := &MCPConfig{}
	seen := map[string]bool{}
	disabled := map[string]bool{}
	var found []*MCPServer
	for _, f := range c.mcpFiles(project) {
		f.expand = f.expand && expand
		data, err := os.ReadFile(f.path)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
			continue
		}
		if err != nil {
			out.Errors = append(out.Errors, fmt.Errorf("MCP config %s: %w", f.path, err))
			continue
		}
		out.Files = append(out.Files, f.path)
		servers, deny, errs := parseMCPFile(data, f, c.Env)
		out.Errors = append(out.Errors, errs...)
		if f.denylist {
			for _, n := range deny {
				disabled[n] = true
			}
		}
		for _, s := range servers {
			if seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			found = append(found, s)
		}
	}
	for _, s := range found {
		if disabled[s.Name] || !s.IsEnabled() {
			continue
		}
		out.Servers = append(out.Servers, s)
	}
	out.Disabled = slices.Sorted(func(yield func(string) bool) {
		for n := range disabled {
			if !yield(n) {
				return
			}
		}
	})
	return out
}

// MCPServerEntry is one MCP server entry as written in an mcp.json-style
// file (mcpServers.<name>); plugins' .mcp.json files use the same shape.
type MCPServerEntry struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Enabled *bool             `json:"enabled"`
	Timeout float64           `json:"timeout"`
}

// parseMCPFile reads one file: its valid servers (sorted by name, so
// errors come out in a stable order), its disabledServers and the
// problems found.
func parseMCPFile(data []byte, f mcpFile, env Env) ([]*MCPServer, []string, []error) {
	var doc struct {
		Servers  map[string]json.RawMessage `json:"mcpServers"`
		Disabled []string                   `json:"disabledServers"`
	}
	if err := json.Unmarshal(StripJSONC(data), &doc); err != nil {
		return nil, nil, []error{fmt.Errorf("MCP config %s: %w (fix the JSON; the file was skipped)", f.path, jsonError(data, err))}
	}
	var servers []*MCPServer
	var errs []error
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range doc.Servers {
			if !yield(n) {
				return
			}
		}
	}) {
		var raw MCPServerEntry
		if err := json.Unmarshal(doc.Servers[name], &raw); err != nil {
			errs = append(errs, fmt.Errorf("Server %q: %v (in %s)", name, err, f.path))
			continue
		}
		s, err := newMCPServer(name, raw, f, env)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w (in %s)", err, f.path))
			continue
		}
		servers = append(servers, s)
	}
	return servers, doc.Disabled, errs
}

// newMCPServer validates an entry and fills in its defaults.
func newMCPServer(name string, raw MCPServerEntry, f mcpFile, env Env) (*MCPServer, error) {
	if err := ValidateMCPServer(name, raw.Type, raw.Command, raw.URL); err != nil {
		return nil, err
	}
	s := &MCPServer{
		Name: name, Type: raw.Type, Command: raw.Command, Args: raw.Args, Env: raw.Env, Cwd: raw.Cwd,
		URL: raw.URL, Headers: raw.Headers, Enabled: raw.Enabled, Source: f.path, Level: f.level,
	}
	if s.Type == "" {
		s.Type = MCPStdio
	}
	if raw.Timeout > 0 {
		s.Timeout = time.Duration(raw.Timeout * float64(time.Millisecond))
	}
	if f.expand {
		x := func(v string) string { return expandVars(v, env) }
		s.Command, s.Cwd, s.URL = x(s.Command), x(s.Cwd), x(s.URL)
		for i := range s.Args {
			s.Args[i] = x(s.Args[i])
		}
		for k, v := range s.Env {
			s.Env[k] = x(v)
		}
		for k, v := range s.Headers {
			s.Headers[k] = x(v)
		}
	}
	return s, nil
}

// ValidateMCPServer checks a server entry's name and transport fields
// and returns the error the user sees, or nil.
func ValidateMCPServer(name, typ, command, url string) error {
	if !mcpName().MatchString(name) {
		return fmt.Errorf("Server %q: invalid server name: use 1 to 100 letters, digits, '_', '.' or '-'", name)
	}
	switch typ {
	case "", MCPStdio:
		if command == "" {
			return fmt.Errorf("Server %q: stdio server requires \"command\" field", name)
		}
	case MCPHTTP, MCPSSE:
		if url == "" {
			return fmt.Errorf("Server %q: %s server requires \"url\" field", name, typ)
		}
	default:
		return fmt.Errorf("Server %q: unknown server type %q (use stdio, http or sse)", name, typ)
	}
	if command != "" && url != "" {
		return fmt.Errorf("Server %q: both \"command\" and \"url\" are set", name)
	}
	return nil
}

// varRef matches ${VAR} and ${VAR:-default}.
var varRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}`) })

// expandVars replaces ${VAR} with the variable's value ("" when unset)
// and ${VAR:-default} with the value, or default when unset or empty.
func expandVars(s string, env Env) string {
	if !strings.Contains(s, "${") {
		return s
	}
	return varRef().ReplaceAllStringFunc(s, func(m string) string {
		sub := varRef().FindStringSubmatch(m)
		if v := env.Get(sub[1]); v != "" {
			return v
		}
		return sub[2]
	})
}

// ResolveMCPValue resolves an env or header value of an MCP server the
// way omp does before launching or connecting: "!command" runs the
// command in the user's shell (10 s at most) and gives its trimmed
// output; a value naming a set, non-empty environment variable gives that
// variable's value; anything else is used as written. ok is false when a
// command fails, times out or prints nothing: the entry is then left out.
func (c *Config) ResolveMCPValue(ctx context.Context, value string) (resolved string, ok bool) {
	if cmd, isCmd := strings.CutPrefix(value, "!"); isCmd {
		return c.runValueCommand(ctx, cmd)
	}
	if v := c.Env.Get(value); v != "" {
		return v, true
	}
	return value, true
}

// runValueCommand runs a "!command" value.
func (c *Config) runValueCommand(ctx context.Context, command string) (string, bool) {
	ctx, cancel := context.WithTimeout(ctx, mcpCommandTimeout)
	defer cancel()
	shell := "/bin/sh"
	if _, err := os.Stat(shell); err != nil {
		shell = "sh"
	}
	cmd := exec.CommandContext(ctx, shell, "-c", command)
	cmd.Dir = c.Cwd
	cmd.Env = c.Env.Environ()
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	childproc.Prepare(cmd)
	if err := cmd.Run(); err != nil {
		return "", false
	}
	v := strings.TrimSpace(out.String())
	return v, v != ""
}
