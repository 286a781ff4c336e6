package lsp

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/internal/projectbin"

	"github.com/gopi-agent/gopi/core/config"
)

// Server is one language server definition: how to start it, which files
// it handles and which files mark a project it serves.
type Server struct {
	Name        string          `json:"name"`                  // key of the definition ("gopls")
	Command     string          `json:"command"`               // program, looked up on PATH unless it has a slash
	Args        []string        `json:"args,omitempty"`        // its arguments
	FileTypes   []string        `json:"fileTypes"`             // extensions (".go") or exact base names ("Dockerfile")
	RootMarkers []string        `json:"rootMarkers"`           // files (or globs like "*.cabal") whose presence in the root selects it
	InitOptions json.RawMessage `json:"initOptions,omitempty"` // initializationOptions of initialize
	// Settings answer the server's workspace/configuration requests, by
	// section ("gopls", "python.analysis").
	Settings        map[string]any `json:"settings,omitempty"`
	IsLinter        bool           `json:"isLinter,omitempty"`        // a linter: ranked after the primary servers, never asked to navigate
	Disabled        bool           `json:"disabled,omitempty"`        // a configuration file turned it off
	WarmupTimeoutMs int            `json:"warmupTimeoutMs,omitempty"` // how long initialize may take when warming up; 0: WarmupTimeout
	Install         string         `json:"install,omitempty"`         // how to install the program, for the "not installed" answer
	// Path is the executable found for Command ("" until resolved; see
	// Resolve).
	Path string `json:"-"`
}

// Default timings.
const (
	WarmupTimeout = 5 * time.Second // initialize of a server started ahead of use
)

//go:embed servers.json
var builtinJSON []byte

// Builtins returns gopi's built-in server definitions, in their order of
// preference (an earlier server is tried first where several handle a
// file, linters aside).
func Builtins() []*Server {
	var list []*Server
	if err := json.Unmarshal(builtinJSON, &list); err != nil {
		panic("core/lsp: servers.json: " + err.Error()) // a build-time fixture; tests read it
	}
	return list
}

// builtinDefs is Builtins parsed once, for Resolve, which only copies
// from it (the welcome block resolves before the first frame: the parse
// was a third of that).
var builtinDefs = sync.OnceValue(Builtins)

// Servers is the set of language servers for one workspace root: the
// definitions that apply (their root markers are present and their
// program was found), primary servers before linters where several handle
// a file.
type Servers struct {
	Root        string        // the workspace root the servers were chosen for
	List        []*Server     // the servers, in definition order
	IdleTimeout time.Duration // stop a server idle this long; 0: never
	Missing     []*Server     // definitions whose root markers are present but whose program was not found
	Warnings    []error       // invalid definitions in configuration files (skipped)
}

// ResolveOptions say where Resolve looks.
type ResolveOptions struct {
	Root  string           // the workspace root (the session's working directory)
	Files []config.LSPFile // configuration files, lowest priority first
	Path  string           // the PATH to search for server programs
	// ExtraDirs are searched for server programs after the project's own
	// bin directories and before Path (the test cache of scripts/setup.sh).
	ExtraDirs []string
	// Builtins replaces the built-in definitions (tests); nil: Builtins().
	Builtins []*Server
}

// Resolve picks the servers of a workspace: the built-in definitions with
// the configuration files' entries merged over them (field by field; a
// new name adds a server), then those whose root markers exist in the
// root and whose program is found, in the project's own bin directories
// (node_modules/.bin, .venv/bin, …), then ExtraDirs, then PATH. A
// definition turned off with "disabled" is left out.
func Resolve(opts ResolveOptions) *Servers {
	defs := opts.Builtins
	if defs == nil {
		defs = builtinDefs()
	}
	out := &Servers{Root: opts.Root}
	merged := make([]*Server, 0, len(defs))
	byName := map[string]int{}
	for _, d := range defs {
		c := *d
		byName[c.Name] = len(merged)
		merged = append(merged, &c)
	}
	for _, f := range opts.Files {
		if f.IdleTimeoutMs != nil {
			out.IdleTimeout = time.Duration(*f.IdleTimeoutMs * float64(time.Millisecond))
		}
		for _, name := range slices.Sorted(maps.Keys(f.Servers)) {
			var base *Server
			if i, ok := byName[name]; ok {
				base = merged[i]
			}
			s, err := mergeServer(name, base, f.Servers[name])
			if err != nil {
				out.Warnings = append(out.Warnings, fmt.Errorf("LSP server %q in %s: %w (entry skipped)", name, f.Path, err))
				continue
			}
			if i, ok := byName[name]; ok {
				merged[i] = s
			} else {
				byName[name] = len(merged)
				merged = append(merged, s)
			}
		}
	}
	look := newFinder(opts.Root, opts.ExtraDirs, opts.Path)
	markers := projectbin.ReadMarkers(opts.Root)
	for _, s := range merged {
		if s.Disabled || !markers.Has(s.RootMarkers) {
			continue
		}
		if s.Path = look.find(s.Command); s.Path == "" {
			out.Missing = append(out.Missing, s)
			continue
		}
		out.List = append(out.List, s)
	}
	return out
}

// mergeServer lays the fields written in a configuration file over base
// (nil: a new server) and checks that the result can be started.
func mergeServer(name string, base *Server, fields map[string]any) (*Server, error) {
	doc := map[string]any{}
	if base != nil {
		raw, _ := json.Marshal(base)
		_ = json.Unmarshal(raw, &doc)
	}
	for k, v := range fields {
		doc[k] = v
	}
	doc["name"] = name
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var s Server
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	switch {
	case s.Command == "":
		return nil, fmt.Errorf("no command")
	case len(s.FileTypes) == 0:
		return nil, fmt.Errorf("no fileTypes")
	case len(s.RootMarkers) == 0:
		return nil, fmt.Errorf("no rootMarkers")
	}
	return &s, nil
}

// ForFile returns the servers that handle path (by extension or exact
// base name, case-insensitively), primary servers first, then linters.
func (s *Servers) ForFile(path string) []*Server {
	ext := strings.ToLower(filepath.Ext(path))
	base := strings.ToLower(filepath.Base(path))
	var primary, linters []*Server
	for _, srv := range s.List {
		if !slices.ContainsFunc(srv.FileTypes, func(t string) bool {
			t = strings.ToLower(t)
			return t == ext || t == base
		}) {
			continue
		}
		if srv.IsLinter {
			linters = append(linters, srv)
		} else {
			primary = append(primary, srv)
		}
	}
	return append(primary, linters...)
}

// PrimaryFor returns the first non-linter server for path, or nil.
func (s *Servers) PrimaryFor(path string) *Server {
	for _, srv := range s.ForFile(path) {
		if !srv.IsLinter {
			return srv
		}
	}
	return nil
}

// InstallHint is the one-line answer for a server whose program is not
// installed.
func (s *Server) InstallHint() string {
	how := s.Install
	if how == "" {
		how = "install it and make sure it is on PATH"
	}
	return fmt.Sprintf("language server %s (%s) is not installed; install it with: %s", s.Name, s.Command, how)
}

// MissingFor returns the definition that would handle path but whose
// program is not installed, or nil.
func (s *Servers) MissingFor(path string) *Server {
	probe := &Servers{List: s.Missing}
	if f := probe.ForFile(path); len(f) > 0 {
		return f[0]
	}
	return nil
}
