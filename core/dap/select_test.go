package dap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// installed makes executables named names in a directory and returns a
// resolver whose PATH is only that directory.
func installed(t *testing.T, names ...string) *Resolver {
	t.Helper()
	bin := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(bin, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return &Resolver{Env: []string{"PATH=" + bin}}
}

// The choice of omp's config.ts: extension match first, then root
// markers, then gdb before lldb-dap; extensionless binaries only get
// native debuggers or adapters whose project is there; attach prefers
// debugpy for a port, then the native debuggers.
func TestSelect(t *testing.T) {
	t.Parallel()
	r := installed(t, "dlv", "gdb", "lldb-dap", "python3")
	plain, gomod := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(gomod, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ program, cwd, name, want string }{
		{"/p/main.go", plain, "", "dlv"},
		{"/p/app.py", plain, "", "debugpy"}, // python3 stands in for python
		{"/p/a.c", plain, "", "gdb"},
		{"/p/a.rs", plain, "", "gdb"},
		{"/p/a.swift", plain, "", "lldb-dap"},
		{"/p/app", plain, "", "gdb"},
		{"/p/app", gomod, "", "dlv"}, // a root marker beats the native debuggers
		{"/p/a.unknown", plain, "", "gdb"},
		{"/p/main.go", plain, "lldb-dap", "lldb-dap"},
	} {
		a, err := r.SelectLaunch(tc.program, tc.cwd, tc.name)
		if err != nil || a.Name != tc.want {
			t.Errorf("%s in %s (%q): %+v %v, want %s", tc.program, tc.cwd, tc.name, a, err, tc.want)
		}
	}
	if a, err := r.SelectAttach(plain, "", true); err != nil || a.Name != "debugpy" {
		t.Errorf("attach to a port: %+v %v", a, err)
	}
	if a, err := r.SelectAttach(plain, "", false); err != nil || a.Name != "gdb" {
		t.Errorf("attach to a pid: %+v %v", a, err)
	}
	if a, err := r.SelectLaunch("/p/main.go", plain, "dlv"); err != nil || a.Connect != ConnectSocket || !strings.HasSuffix(a.Path, "/dlv") {
		t.Errorf("dlv: %+v %v", a, err)
	}
}

// A missing adapter: the error lists what is installed and the command
// that installs what is needed.
func TestSelectMissing(t *testing.T) {
	t.Parallel()
	r := installed(t, "gdb")
	plain := t.TempDir()
	for _, tc := range []struct {
		program, name, want string
	}{
		{"/p/main.go", "dlv", "No debugger adapter available. Installed adapters: gdb. dlv is not installed; install it with: go install github.com/go-delve/delve/cmd/dlv@latest"},
		{"/p/main.go", "nope", `No debugger adapter available. Installed adapters: gdb. unknown adapter "nope"; known adapters: gdb, lldb-dap, codelldb, debugpy, dlv,`},
	} {
		_, err := r.SelectLaunch(tc.program, plain, tc.name)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s %q: %v", tc.program, tc.name, err)
		}
	}
	none := installed(t)
	_, err := none.SelectLaunch("/p/app.py", plain, "")
	if err == nil || err.Error() != "No debugger adapter available. Installed adapters: none. debugpy is not installed; install it with: python3 -m pip install debugpy" {
		t.Errorf("nothing installed: %v", err)
	}
	if _, err := none.SelectAttach(plain, "", false); err == nil || err.Error() != "No debugger adapter available. Installed adapters: none" {
		t.Errorf("attach with nothing installed: %v", err)
	}
}

// Project-local bin directories come before PATH when their markers are
// there.
func TestLocalBin(t *testing.T) {
	t.Parallel()
	r := installed(t, "dlv")
	proj := t.TempDir()
	local := filepath.Join(proj, "bin", "dlv")
	if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(local, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if a, _ := r.Resolve("dlv", proj); a == nil || strings.HasPrefix(a.Path, proj) {
		t.Fatalf("without go.mod: %+v", a)
	}
	if err := os.WriteFile(filepath.Join(proj, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if a, _ := r.Resolve("dlv", proj); a == nil || a.Path != local {
		t.Fatalf("with go.mod: %+v", a)
	}
}

// A gdb older than 14 has no DAP interpreter: it counts as missing (the
// error says why), and lldb-dap under its Debian name is taken instead.
func TestOldGdb(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	script := func(name, text string) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\necho '"+text+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script("gdb", "GNU gdb (Debian 13.1-3) 13.1")
	r := &Resolver{Env: []string{"PATH=" + bin}}
	_, err := r.SelectLaunch("/p/app", t.TempDir(), "gdb")
	want := "No debugger adapter available. Installed adapters: none. " + filepath.Join(bin, "gdb") + " is version 13, which has no DAP support (14 or later has); install a newer one: apt-get install gdb"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("%v", err)
	}
	script("lldb-dap-19", "lldb version 19.1.7")
	r = &Resolver{Env: []string{"PATH=" + bin}}
	if a, err := r.SelectLaunch("/p/app", t.TempDir(), ""); err != nil || a.Name != "lldb-dap" || filepath.Base(a.Path) != "lldb-dap-19" {
		t.Fatalf("%+v %v", a, err)
	}
	script("gdb", "GNU gdb (GDB) 14.2")
	r = &Resolver{Env: []string{"PATH=" + bin}}
	if a, err := r.SelectLaunch("/p/app", t.TempDir(), ""); err != nil || a.Name != "gdb" {
		t.Fatalf("%+v %v", a, err)
	}
}
