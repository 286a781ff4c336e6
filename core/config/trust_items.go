package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// projectRequests lists what the project asks for (see trust.go) and the
// settings to hold back while it is not trusted.
func (c *Config) projectRequests() (items []TrustItem, mask []string) {
	if c.Settings != nil {
		for _, g := range guardedSettings {
			if it, ok := c.settingRequest(g); ok {
				items = append(items, it)
				mask = append(mask, g.key)
			}
		}
	}
	items = append(items, c.mcpRequests()...)
	items = append(items, c.lspRequests()...)
	items = append(items, c.moduleRequests(TrustExtension, projectExtensionDirs)...)
	items = append(items, c.moduleRequests(TrustCustomTool, projectToolDirs)...)
	items = append(items, c.envRequests()...)
	return items, mask
}

// guardedSetting is a setting a project may only change once trusted.
type guardedSetting struct {
	key string
	// asks reports whether the project's value (every layer) needs trust
	// over the user's (the layers without the project's).
	asks func(key string, user, project any) bool
}

// guardedSettings are the settings that name programs to run or lower a
// protection. Add a setting here when it gates what runs or what leaves
// the machine.
var guardedSettings = []guardedSetting{
	{"secrets.enabled", turnedOff},        // secrets would reach the provider
	{"mcp.enableProjectConfig", turnedOn}, // the user turned project MCP files off
	{"acp.requirePermission", fewerAsks},  // tools the editor is asked about
	{"rpc.requirePermission", fewerAsks},  // tools the RPC host is asked about
	{"tui.requirePermission", fewerAsks},  // tools the terminal asks about
	{"disabledExtensions", narrowed},      // extensions the user turned off
	{"extensions", differs},               // modules to load and run
	{"shellPath", differs},                // the shell every command runs in
	{"memory.backend", differs},           // conversations sent to a memory server
	{"hindsight.apiUrl", differs},         // which server gets them (and the token)
}

func turnedOff(key string, user, project any) bool {
	return boolValue(key, user) && !boolValue(key, project)
}
func turnedOn(key string, user, project any) bool {
	return !boolValue(key, user) && boolValue(key, project)
}
func differs(_ string, user, project any) bool { return !reflect.DeepEqual(user, project) }

// narrowed reports whether the project's list leaves out something of the
// user's.
func narrowed(_ string, user, project any) bool {
	have := stringList(project)
	for _, s := range stringList(user) {
		if !slices.Contains(have, s) {
			return true
		}
	}
	return false
}

// fewerAsks reports whether the project's permission list asks about less
// than the user's: it leaves out one of the user's entries, or adds a
// "!name" exclusion the user does not have (an exclusion wins over every
// pattern, so "!bash" alone silences every bash question).
func fewerAsks(key string, user, project any) bool {
	if narrowed(key, user, project) {
		return true
	}
	mine := stringList(user)
	for _, s := range stringList(project) {
		if strings.HasPrefix(s, "!") && !slices.Contains(mine, s) {
			return true
		}
	}
	return false
}

// boolValue reads a boolean as Settings.Bool does (the default when not a
// boolean).
func boolValue(key string, v any) bool {
	if b, ok := v.(bool); ok {
		return b
	}
	b, _ := defaultOf(key).(bool)
	return b
}

// stringList reads a list's strings.
func stringList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// settingRequest says whether the project's value of a guarded setting
// needs trust.
func (c *Config) settingRequest(g guardedSetting) (TrustItem, bool) {
	src, set := c.Settings.projectSource(g.key)
	if !set {
		return TrustItem{}, false
	}
	user := c.Settings.valueOf(g.key, func(l Layer) bool { return l.Kind != LayerProject })
	project := c.Settings.valueOf(g.key, func(Layer) bool { return true })
	if !g.asks(g.key, user, project) {
		return TrustItem{}, false
	}
	data, _ := json.Marshal(project)
	return TrustItem{
		Kind: TrustSetting, Name: g.key, Source: c.rel(src),
		Detail: fmt.Sprintf("%s (yours: %s)", showValue(project), showValue(user)),
		fp:     string(data),
	}, true
}

// showValue renders a setting's value for the user.
func showValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "unset"
	case string:
		return fmt.Sprintf("%q", x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = showValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// mcpRequests lists the project's MCP servers that would start: enabled,
// not turned off in the user's disabledServers, and not hidden by a
// definition of the same name with a higher priority.
func (c *Config) mcpRequests() []TrustItem {
	if !c.projectMCPEnabled() {
		return nil
	}
	var out []TrustItem
	for _, s := range c.readMCP(true, false).Servers {
		if s.Level != LevelProject {
			continue
		}
		detail := "connects to " + s.URL
		if s.Type == MCPStdio {
			detail = "runs " + commandLine(s.Command, s.Args)
		}
		if n := valueCommands(s); n > 0 {
			detail += fmt.Sprintf(" and %d !command value(s)", n)
		}
		out = append(out, TrustItem{Kind: TrustMCPServer, Name: s.Name, Detail: detail, Source: c.rel(s.Source), fp: serverPrint(s)})
	}
	return out
}

// serverPrint is what the fingerprint covers of a server: its definition
// as written.
func serverPrint(s *MCPServer) string {
	data, _ := json.Marshal(struct {
		Type, Command, Cwd, URL string
		Args                    []string
		Env, Headers            map[string]string
	}{s.Type, s.Command, s.Cwd, s.URL, s.Args, s.Env, s.Headers})
	return string(data)
}

// trustedWholesale reports whether the project is trusted whatever it
// asks for (the flag, PI_TRUST_PROJECT, trustedProjects) rather than for
// the requests that were answered.
func (c *Config) trustedWholesale() bool {
	switch c.trust.How {
	case TrustByFlag, TrustByEnv, TrustBySetting:
		return true
	}
	return false
}

// grantedServers names the project servers that were among the granted
// requests and are still defined the same way (as written: the standalone
// files' ${VAR} are expanded only for use).
func (c *Config) grantedServers() map[string]bool {
	out := map[string]bool{}
	if !c.trust.Trusted {
		return out
	}
	for _, r := range c.readMCP(true, false).Servers {
		if r.Level != LevelProject {
			continue
		}
		for _, it := range c.trust.Items {
			if it.Kind == TrustMCPServer && it.Name == r.Name && it.Source == c.rel(r.Source) && it.fp == serverPrint(r) {
				out[r.Name] = true
			}
		}
	}
	return out
}

// valueCommands counts the "!command" values of a server's env and
// headers (they run in the user's shell).
func valueCommands(s *MCPServer) int {
	n := 0
	for _, m := range []map[string]string{s.Env, s.Headers} {
		for _, v := range m {
			if strings.HasPrefix(v, "!") {
				n++
			}
		}
	}
	return n
}

// commandLine renders a command and its arguments, quoting where needed.
func commandLine(cmd string, args []string) string {
	parts := []string{cmd}
	parts = append(parts, args...)
	for i, p := range parts {
		if p == "" || strings.ContainsAny(p, " \t\n'\"\\$`") {
			parts[i] = fmt.Sprintf("%q", p)
		}
	}
	return strings.Join(parts, " ")
}

// projectExtensionDirs are the project directories extensions are
// discovered in, relative to the project.
var projectExtensionDirs = []string{filepath.Join(DirName, "extensions"), filepath.Join(OMPDirName, "extensions")}

// projectToolDirs are the project directories custom tool modules are
// discovered in, relative to the project.
var projectToolDirs = []string{
	filepath.Join(DirName, "tools"), filepath.Join(OMPDirName, "tools"),
	filepath.Join(".claude", "tools"), filepath.Join(".codex", "tools"),
}

// moduleRequests lists the modules of the project's extension or tool
// directories: *.ts, *.js, *.mjs, *.mts files (not .d.ts) and
// subdirectories with a package.json or an index file, as discovery
// finds them.
func (c *Config) moduleRequests(kind TrustKind, dirs []string) []TrustItem {
	var out []TrustItem
	for _, d := range dirs {
		ents, err := os.ReadDir(filepath.Join(c.Cwd, d))
		if err != nil {
			continue
		}
		for _, e := range ents {
			name := e.Name()
			p := filepath.Join(c.Cwd, d, name)
			if strings.HasPrefix(name, ".") || !isModule(p) {
				continue
			}
			rel := filepath.Join(d, name)
			out = append(out, TrustItem{Kind: kind, Name: rel, Source: rel, fp: rel})
		}
	}
	return out
}

// isModule reports whether a directory entry is something discovery
// loads.
func isModule(p string) bool {
	fi, err := os.Stat(p)
	if err != nil {
		return false
	}
	if fi.IsDir() {
		for _, f := range []string{"package.json", "index.ts", "index.js"} {
			if exists(filepath.Join(p, f)) {
				return true
			}
		}
		return false
	}
	switch filepath.Ext(p) {
	case ".ts", ".js", ".mjs", ".mts":
		return !strings.HasSuffix(p, ".d.ts")
	}
	return false
}

// envRequests lists the variables the project's .env supplies that
// change what commands run or where requests go.
func (c *Config) envRequests() []TrustItem {
	project := filepath.Join(c.Cwd, DotenvFile)
	var out []TrustItem
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k, from := range c.Env.from {
			if from == project && !yield(k) {
				return
			}
		}
	}) {
		if !sensitiveEnv(k) {
			continue
		}
		v := c.Env.Get(k)
		out = append(out, TrustItem{Kind: TrustEnv, Name: k, Detail: "= " + clip(fmt.Sprintf("%q", v)), Source: DotenvFile, fp: v})
	}
	return out
}

// sensitiveEnvNames are variables that make programs run other code, or
// send requests (with the user's credentials) elsewhere.
var sensitiveEnvNames = []string{
	"BASH_ENV", "ENV", "PROMPT_COMMAND", "SHELL", "SHELLOPTS", "BASHOPTS", "PATH",
	"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH",
	"NODE_OPTIONS", "NODE_PATH", "PYTHONSTARTUP", "PYTHONPATH", "PERL5OPT", "PERL5LIB", "RUBYOPT",
	"SSH_ASKPASS", "PAGER", "EDITOR", "VISUAL", EnvShellPrefix, EnvShellPrefixAlt,
	"CLAUDE_CODE_USE_FOUNDRY", "ANTHROPIC_CUSTOM_HEADERS", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR",
	"CLAUDE_CODE_CLIENT_CERT", "CLAUDE_CODE_CLIENT_KEY", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
	"HINDSIGHT_API_URL",
}

// sensitiveEnv reports whether a project's .env may set key only once
// the project is trusted: the names above (in any case), git's variables
// (they can name commands git runs), and base URLs of providers.
func sensitiveEnv(key string) bool {
	up := strings.ToUpper(key)
	return slices.Contains(sensitiveEnvNames, up) || strings.HasPrefix(up, "GIT_") || strings.HasSuffix(up, "_BASE_URL")
}

// rel names a file relative to the project when it is inside it.
func (c *Config) rel(p string) string {
	if r, err := filepath.Rel(c.Cwd, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}
