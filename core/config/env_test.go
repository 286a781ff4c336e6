package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDotenvLoadOrder(t *testing.T) {
	f := newFixture(t, "A=process", "E=")
	f.write("work/proj/.env", "A=cwd\nB=cwd\nE=filled\n")
	f.write("home/.gopi/agent/.env", "B=agent\nC=agent\n")
	f.write("home/.gopi/.env", "C=root\nD=root\n")
	f.write("home/.omp/agent/.env", "D=omp-agent\nF=omp-agent\n")
	f.write("home/.omp/.env", "F=omp-root\nG=omp-root\n")
	f.write("home/.env", "G=home\nH=home\n")
	c := f.load()
	want := map[string]string{"A": "process", "B": "cwd", "C": "agent", "D": "root", "E": "filled", "F": "omp-agent", "G": "omp-root", "H": "home"}
	for k, v := range want {
		if got := c.Env.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if c.Env.Source("A") != "" || c.Env.Source("B") != filepath.Join(f.cwd, ".env") || c.Env.Source("H") != filepath.Join(f.home, ".env") {
		t.Errorf("sources: A %q, B %q, H %q", c.Env.Source("A"), c.Env.Source("B"), c.Env.Source("H"))
	}
	if !slices.Contains(c.Env.Environ(), "H=home") {
		t.Error("Environ misses a .env variable")
	}
}

func TestDotenvMirrorsOMPAndNeverOverrides(t *testing.T) {
	f := newFixture(t, "PI_KEPT=process")
	f.write("home/.env", "OMP_SMOL_MODEL=x/small\nOMP_KEPT=file\nPI_OTHER=pi\nOMP_OTHER=omp\n")
	c := f.load()
	for k, v := range map[string]string{"PI_SMOL_MODEL": "x/small", "OMP_SMOL_MODEL": "x/small", "PI_KEPT": "process", "PI_OTHER": "omp"} {
		if got := c.Env.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	// The mirrored variable reaches the settings through the env layer.
	if got := c.Settings.ModelRole(RoleSmol); got != "x/small" {
		t.Errorf("smol role %q", got)
	}
}

func TestDotenvLeavesProcessAlone(t *testing.T) {
	const key = "GOPI_CONFIG_TEST_ONLY_IN_DOTENV"
	f := newFixture(t)
	f.write("home/.env", key+"=x\n")
	if c := f.load(); c.Env.Get(key) != "x" {
		t.Fatal("not loaded")
	}
	if _, set := os.LookupEnv(key); set {
		t.Fatal("Load changed the process environment")
	}
}

func TestDotenvFollowsAgentDirOverride(t *testing.T) {
	f := newFixture(t, EnvCodingAgentDir+"=~/custom")
	f.write("home/custom/.env", "A=custom\n")
	f.write("home/.gopi/agent/.env", "A=default\nB=default\n")
	c := f.load()
	if c.Env.Get("A") != "custom" || c.Env.Get("B") != "" {
		t.Fatalf("A=%q B=%q", c.Env.Get("A"), c.Env.Get("B"))
	}
}

func TestDotenvCannotMoveDirectories(t *testing.T) {
	f := newFixture(t)
	f.write("work/proj/.env", EnvCodingAgentDir+"=/elsewhere\n")
	c := f.load()
	if c.AgentDir != filepath.Join(f.home, ".gopi", "agent") {
		t.Fatal(c.AgentDir)
	}
}

func TestDotenvWarningsAndNoFiles(t *testing.T) {
	f := newFixture(t)
	p := f.write("home/.env", "A=1\nnot an assignment\n")
	c := f.load()
	if c.Env.Get("A") != "1" || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0].Error(), p+": line 2: expected KEY=VALUE") {
		t.Fatalf("A=%q warnings %v", c.Env.Get("A"), c.Warnings)
	}
	opts := f.options()
	opts.NoFiles = true
	c, err := Load(opts)
	if err != nil || c.Env.Get("A") != "" || c.Env.Get("HOME") != f.home {
		t.Fatalf("NoFiles: %v, A=%q", err, c.Env.Get("A"))
	}
}

func TestEnvBasics(t *testing.T) {
	e := NewEnv([]string{"A=1", "B=x=y", "junk", "A=2", "=v"})
	if e.Get("A") != "2" || e.Get("B") != "x=y" || e.Len() != 2 {
		t.Fatalf("%v", e.Environ())
	}
	if _, ok := e.Lookup("junk"); ok {
		t.Fatal("entry without = accepted")
	}
	m := EnvFromMap(map[string]string{"K": "v"})
	if v, ok := m.Lookup("K"); !ok || v != "v" {
		t.Fatal("EnvFromMap")
	}
	var zero Env
	if zero.Get("X") != "" || zero.Len() != 0 || len(zero.Environ()) != 0 {
		t.Fatal("zero Env")
	}
}
