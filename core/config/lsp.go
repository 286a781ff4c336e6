package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// LSPFileNames are the names a language server configuration file may
// have, in the order they are tried in each directory (omp's lsp.json
// family: visible and hidden, JSON and YAML).
var LSPFileNames = []string{"lsp.json", ".lsp.json", "lsp.yaml", ".lsp.yaml", "lsp.yml", ".lsp.yml"}

// LSPFile is one language server configuration file that was read.
type LSPFile struct {
	Path  string // where it was read
	Level Level  // user or project
	// Servers are the server entries as written, by server name: each a
	// map of fields (command, args, fileTypes, rootMarkers, initOptions,
	// settings, isLinter, disabled, …) merged over the built-in
	// definition of the same name by core/lsp.
	Servers map[string]map[string]any
	// IdleTimeoutMs, when the file sets it, stops a server idle this long.
	IdleTimeoutMs *float64
}

// LSPConfig is what the language server client needs from the
// configuration.
type LSPConfig struct {
	Enabled bool      // lsp.enabled (and not --no-lsp, which overrides it)
	Files   []LSPFile // configuration files, lowest priority first (the order they merge in)
	Errors  []error   // files that could not be read or parsed (they are skipped)
	Path    string    // the PATH servers are looked up in
	Home    string    // the user's home directory
	Environ []string  // the environment servers run with (the process's and the .env files')
	// ShareDir is the private per-user directory where gopi processes
	// meet to share one server per server and root (lsp.shareServers);
	// "": every process runs its own.
	ShareDir string
}

// EnvLSPShareDir overrides the directory where gopi processes share
// language servers (LSPConfig.ShareDir).
const EnvLSPShareDir = "GOPI_LSP_SHARE_DIR"

// lspShareDir is where processes share language servers: $GOPI_LSP_SHARE_DIR,
// else gopi-lsp in $XDG_RUNTIME_DIR, else gopi-lsp-<uid> in the temporary
// directory; "" when lsp.shareServers is off.
func (c *Config) lspShareDir() string {
	if c.Settings != nil && !c.Settings.Bool("lsp.shareServers") {
		return ""
	}
	if d := c.Env.Get(EnvLSPShareDir); d != "" {
		return d
	}
	if d := c.Env.Get("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "gopi-lsp")
	}
	tmp := c.Env.Get("TMPDIR")
	if tmp == "" || !filepath.IsAbs(tmp) {
		tmp = "/tmp"
	}
	return filepath.Join(tmp, fmt.Sprintf("gopi-lsp-%d", os.Getuid()))
}

// LSP returns the language server configuration: the lsp.enabled setting
// and the lsp.json/lsp.yaml files of the project root, the project's
// config directories (.gopi, .omp, .claude, …), the user's config
// directories and the home directory, from lowest to highest priority
// (home first, project root last). The project's files are read only when
// the project is trusted: a server entry there that sets a command or its
// arguments is one of the project's trust requests (lspRequests).
func (c *Config) LSP() *LSPConfig {
	out := &LSPConfig{Enabled: c.Settings == nil || c.Settings.Bool("lsp.enabled"), Path: c.Env.Get("PATH"), Home: c.Home, Environ: c.Env.Environ(), ShareDir: c.lspShareDir()}
	var dirs []struct {
		dir   string
		level Level
	}
	add := func(dir string, l Level) {
		dirs = append(dirs, struct {
			dir   string
			level Level
		}{dir, l})
	}
	if c.ProjectTrusted() {
		for _, d := range c.projectLSPDirs() {
			add(d, LevelProject)
		}
	}
	for _, d := range c.Dirs.ConfigDirs("", DirQuery{SkipProject: true}) {
		add(d.Path, LevelUser)
	}
	if c.Home != "" {
		add(c.Home, LevelUser)
	}
	seen := map[string]bool{}
	for _, d := range slices.Backward(dirs) {
		for _, name := range LSPFileNames {
			p := filepath.Join(d.dir, name)
			if seen[p] {
				continue
			}
			seen[p] = true
			f, err := readLSPFile(p, d.level)
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
				continue
			}
			if err != nil {
				out.Errors = append(out.Errors, err)
				continue
			}
			out.Files = append(out.Files, f)
		}
	}
	return out
}

// projectLSPDirs are the project's directories that may hold LSP files,
// highest priority first: the root, then its config directories.
func (c *Config) projectLSPDirs() []string {
	dirs := []string{c.Cwd}
	for _, d := range c.Dirs.ConfigDirs("", DirQuery{SkipUser: true}) {
		dirs = append(dirs, d.Path)
	}
	return dirs
}

// lspRequests are the project's server entries that set what runs (a
// command or its arguments): they take effect once the project is
// trusted, as MCP servers do.
func (c *Config) lspRequests() []TrustItem {
	var out []TrustItem
	for _, dir := range c.projectLSPDirs() {
		for _, name := range LSPFileNames {
			f, err := readLSPFile(filepath.Join(dir, name), LevelProject)
			if err != nil {
				continue
			}
			for _, server := range slices.Sorted(maps.Keys(f.Servers)) {
				fields := f.Servers[server]
				if fields["command"] == nil && fields["args"] == nil {
					continue
				}
				cmd, _ := fields["command"].(string)
				var args []string
				if list, ok := fields["args"].([]any); ok {
					for _, a := range list {
						args = append(args, fmt.Sprint(a))
					}
				}
				detail := "runs " + commandLine(cmd, args)
				if cmd == "" {
					detail = "runs its built-in command with the arguments " + strings.Join(args, " ")
				}
				fp, _ := json.Marshal([]any{cmd, args})
				out = append(out, TrustItem{Kind: TrustLSPServer, Name: server, Detail: detail, Source: c.rel(f.Path), fp: string(fp)})
			}
		}
	}
	return out
}

// readLSPFile reads and parses one configuration file. Its servers are
// either under "servers" or, without that key, every top-level key but
// idleTimeoutMs.
func readLSPFile(p string, level Level) (LSPFile, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return LSPFile{}, err
	}
	f := LSPFile{Path: p, Level: level, Servers: map[string]map[string]any{}}
	format, _ := FormatOf(p)
	doc, err := ParseSettings(data, format)
	if err != nil {
		return LSPFile{}, fmt.Errorf("LSP config %s: %w (fix it; the file was skipped)", p, err)
	}
	switch v := doc["idleTimeoutMs"].(type) {
	case int64:
		ms := float64(v)
		f.IdleTimeoutMs = &ms
	case int:
		ms := float64(v)
		f.IdleTimeoutMs = &ms
	case float64:
		f.IdleTimeoutMs = &v
	}
	servers, ok := doc["servers"].(map[string]any)
	if !ok {
		servers = doc
	}
	for name, entry := range servers {
		if m, ok := entry.(map[string]any); ok && name != "idleTimeoutMs" {
			f.Servers[name] = m
		}
	}
	return f, nil
}
