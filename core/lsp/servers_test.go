package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

// The built-in definitions cover the servers the tool promises.
func TestBuiltins(t *testing.T) {
	names := map[string]*Server{}
	for _, s := range Builtins() {
		names[s.Name] = s
		if s.Command == "" || len(s.FileTypes) == 0 || len(s.RootMarkers) == 0 {
			t.Errorf("%s: incomplete", s.Name)
		}
	}
	for _, n := range []string{"gopls", "typescript-language-server", "pyright", "basedpyright", "rust-analyzer", "clangd"} {
		if names[n] == nil || names[n].Install == "" {
			t.Errorf("%s: missing, or without an install hint", n)
		}
	}
}

// Configuration files merge field by field over the built-ins, a later
// file over an earlier one; root markers and found programs select;
// linters come after primary servers.
func TestResolve(t *testing.T) {
	root, bin := t.TempDir(), t.TempDir()
	for _, f := range []string{"go.mod", "x.cabal"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"gopls", "golint", "hls"} {
		if err := os.WriteFile(filepath.Join(bin, p), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	defs := []*Server{
		{Name: "gopls", Command: "gopls", Args: []string{"serve"}, FileTypes: []string{".go"}, RootMarkers: []string{"go.mod"}},
		{Name: "hls", Command: "hls", FileTypes: []string{".hs"}, RootMarkers: []string{"*.cabal"}},
		{Name: "rust-analyzer", Command: "rust-analyzer", FileTypes: []string{".rs"}, RootMarkers: []string{"Cargo.toml"}},
		{Name: "zls", Command: "zls", FileTypes: []string{".zig"}, RootMarkers: []string{"go.mod"}, Install: "get zls"},
	}
	files := []config.LSPFile{
		{Path: "home", Servers: map[string]map[string]any{"gopls": {"args": []any{"-rpc.trace"}}}},
		{Path: "project", Servers: map[string]map[string]any{
			"gopls":  {"args": []any{"serve", "-v"}},
			"golint": {"command": "golint", "fileTypes": []any{".go"}, "rootMarkers": []any{"go.mod"}, "isLinter": true},
			"hls":    {"disabled": true},
			"broken": {"command": "x"},
		}},
	}
	s := Resolve(ResolveOptions{Root: root, Files: files, Path: bin, Builtins: defs})
	var got []string
	for _, srv := range s.List {
		got = append(got, srv.Name+":"+strings.Join(srv.Args, " "))
	}
	if strings.Join(got, ",") != "gopls:serve -v,golint:" {
		t.Fatalf("servers %v", got)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0].Error(), `"broken" in project: no fileTypes`) {
		t.Fatalf("warnings %v", s.Warnings)
	}
	if f := s.ForFile(filepath.Join(root, "a.GO")); len(f) != 2 || f[0].Name != "gopls" || f[1].Name != "golint" {
		t.Fatalf("ForFile %v", f)
	}
	if s.PrimaryFor("a.rs") != nil {
		t.Fatal("rust-analyzer without Cargo.toml")
	}
	miss := s.MissingFor("a.zig")
	if miss == nil || miss.InstallHint() != "language server zls (zls) is not installed; install it with: get zls" {
		t.Fatalf("missing %+v", miss)
	}
	if s.List[0].Path != filepath.Join(bin, "gopls") {
		t.Fatalf("path %q", s.List[0].Path)
	}
}

// BenchmarkResolve is the detection the welcome block does before the
// first frame: every built-in definition's root markers looked up in a Go
// module's root and the found ones' programs on PATH.
func BenchmarkResolve(b *testing.B) {
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Resolve(ResolveOptions{Root: root, Path: os.Getenv("PATH")})
	}
}
