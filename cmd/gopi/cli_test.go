package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tools/read/readtest"
	"github.com/gopi-agent/gopi/internal/golden"
)

// TestCLI runs every testdata/cli/*.txtar case: the archive's files are
// written to a fresh directory, `args` (one argument per line) is run there
// in-process with an empty home directory, and stdout, stderr (when the
// case has that section) and the exit code are compared with the golden
// sections, with the directory written as $WORK. Sections named
// zip:PATH, tar:PATH, tgz:PATH and sqlite:PATH are built into archives and
// databases (see package readtest).
func TestCLI(t *testing.T) {
	cases, err := filepath.Glob("testdata/cli/*.txtar")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, file := range cases {
		file, _ := filepath.Abs(file)
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runCLICase(t, file)
		})
	}
}

func runCLICase(t *testing.T, file string) {
	ar := golden.ReadArchive(t, file)
	dir := t.TempDir()
	var args []string
	for i := range ar.Files {
		f := &ar.Files[i]
		switch f.Name {
		case "args":
			args = strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
			continue
		case "stdout", "stderr", "exit":
			continue
		}
		name, data := f.Name, f.Data
		if p, built, ok, err := readtest.Build(f.Name, f.Data); err != nil {
			t.Fatal(err)
		} else if ok { // zip:a.zip, sqlite:app.db, …: a generated file
			name, data = p, built
		}
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if args == nil {
		t.Fatal("case has no args section")
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), environ: isolatedEnviron(t)}
	code := run(context.Background(), env, args)

	got := map[string]string{
		"stdout": strings.ReplaceAll(stdout.String(), dir, "$WORK"),
		"stderr": strings.ReplaceAll(stderr.String(), dir, "$WORK"),
		"exit":   strconv.Itoa(code) + "\n",
	}
	for _, name := range []string{"stdout", "stderr", "exit"} {
		// stderr is compared where the case has it; -update adds it when
		// there is some.
		if name != "stderr" || ar.Section(name) != nil || (golden.Update() && got[name] != "") {
			ar.Check(t, name, got[name])
		}
	}
	ar.Save(t)
}

// isolatedEnviron is the process environment with the user's
// configuration out of reach: HOME is an empty temporary directory and the
// variables that move configuration directories are dropped.
func isolatedEnviron(t *testing.T) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "PI_CODING_AGENT_DIR", "PI_CONFIG_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "GOPI_INDEX_DIR":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "HOME="+t.TempDir())
}
