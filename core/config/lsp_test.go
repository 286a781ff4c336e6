package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// LSP files are found in the home directory, the user's config
// directories, the project's config directories and the project root,
// listed lowest priority first; both layouts (under "servers" or at the
// top level) and both syntaxes are read, a broken file is reported.
func TestLSPFiles(t *testing.T) {
	f := newFixture(t, "PATH=/opt/bin")
	f.write("home/.lsp.json", `{"idleTimeoutMs": 600000, "servers": {"gopls": {"args": ["home"]}}}`)
	f.write("home/.gopi/agent/lsp.yml", "gopls:\n  args: [user]\n")
	f.write("work/proj/.omp/lsp.json", `{"gopls": {"args": ["omp-project"]}, "idleTimeoutMs": 5}`)
	f.write("work/proj/lsp.json", `{"servers": {"pyright": {"disabled": true}}}`)
	f.write("work/proj/.gopi/lsp.yaml", "servers: [\n")
	c := f.loadTrusted()
	l := c.LSP()
	var got []string
	for _, file := range l.Files {
		rel, _ := filepath.Rel(f.root, file.Path)
		got = append(got, rel+"="+string(file.Level))
	}
	want := "home/.lsp.json=user,home/.gopi/agent/lsp.yml=user,work/proj/.omp/lsp.json=project,work/proj/lsp.json=project"
	if strings.Join(got, ",") != want {
		t.Fatalf("files\n%s\nwant\n%s", strings.Join(got, ","), want)
	}
	if !l.Enabled || l.Path != "/opt/bin" || *l.Files[0].IdleTimeoutMs != 600000 || *l.Files[2].IdleTimeoutMs != 5 {
		t.Fatalf("%+v", l)
	}
	if args := l.Files[2].Servers["gopls"]["args"].([]any); args[0] != "omp-project" {
		t.Fatalf("omp file: %v", l.Files[2].Servers)
	}
	if _, ok := l.Files[2].Servers["idleTimeoutMs"]; ok {
		t.Fatal("idleTimeoutMs read as a server")
	}
	if len(l.Errors) != 1 || !strings.Contains(l.Errors[0].Error(), "lsp.yaml") {
		t.Fatalf("errors %v", l.Errors)
	}
}

// A project's server entry that sets what runs is a trust request; until
// the project is trusted its LSP files are not read.
func TestLSPProjectNeedsTrust(t *testing.T) {
	f := newFixture(t)
	f.write("work/proj/.gopi/lsp.json", `{"servers": {"gopls": {"command": "/tmp/evil", "args": ["x y"]}, "pyright": {"disabled": true}}}`)
	f.write("home/.gopi/agent/lsp.json", `{"servers": {"gopls": {"args": ["user"]}}}`)
	c := f.load()
	items := c.ProjectTrust().Items
	if len(items) != 1 || items[0].String() != `language server "gopls" runs /tmp/evil "x y" (.gopi/lsp.json)` {
		t.Fatalf("items %v", items)
	}
	if c.ProjectTrusted() {
		t.Fatal("trusted without asking")
	}
	if l := c.LSP(); len(l.Files) != 1 || l.Files[0].Level != LevelUser {
		t.Fatalf("untrusted project files read: %+v", l.Files)
	}
	if l := f.loadTrusted().LSP(); len(l.Files) != 2 {
		t.Fatalf("trusted: %+v", l.Files)
	}
}
