package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

// The last of -a, --binary, --no-binary and the third -u decides what is
// done with a binary file found in a directory, as in ripgrep 14 (ripgrep
// 13 lets -uuu win over a later --no-binary).
func TestGrepBinaryModeLastFlagWins(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"a.txt": "foo text\n", "bin.dat": "foo\x00bar\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	const (
		skipped  = "a.txt:1:foo text\n"
		reported = skipped + "bin.dat: binary file matches (found \"\\0\" byte around offset 3)\n"
		text     = skipped + "bin.dat:1:foo\x00bar\n"
	)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, skipped},
		{[]string{"--binary"}, reported},
		{[]string{"-uuu"}, reported},
		{[]string{"-u", "-u", "-u"}, reported},
		{[]string{"--unrestricted=3"}, reported},
		{[]string{"-a"}, text},
		{[]string{"-uuu", "--no-binary"}, skipped},
		{[]string{"--no-binary", "-uuu"}, reported},
		{[]string{"-a", "-uuu"}, reported},
		{[]string{"-uuu", "-a"}, text},
		{[]string{"--binary", "-a"}, text},
		{[]string{"-a", "--binary"}, reported},
		{[]string{"-a", "--no-binary"}, skipped},
		{[]string{"--binary", "--binary=false"}, skipped},
		{[]string{"--binary", "--text=false"}, reported},
	} {
		out, errOut, code := runIsolated(t, append(append([]string{"grep"}, tc.args...), "foo")...)
		if code != 0 || out != tc.want {
			t.Errorf("grep %q: exit %d, stdout %q (stderr %q); want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

// A negative count is refused when the flags are parsed, naming the flag
// (ripgrep refuses it too), instead of being taken for "not given".
func TestGrepRefusesNegativeCounts(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("foo\nbar\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-A", "-1"}, `-A/--after-context needs a whole number ≥ 0, got "-1"`},
		{[]string{"-B-2"}, `-B/--before-context needs a whole number ≥ 0, got "-2"`},
		{[]string{"--context=-1"}, `-C/--context needs a whole number ≥ 0, got "-1"`},
		{[]string{"-m", "-1"}, `-m/--max-count needs a whole number ≥ 0, got "-1"`},
		{[]string{"--max-depth", "-1"}, `--max-depth needs a whole number ≥ 0, got "-1"`},
		{[]string{"--max-columns", "-5"}, `--max-columns needs a whole number ≥ 0, got "-5"`},
		{[]string{"-A", "x"}, `-A/--after-context needs a whole number ≥ 0, got "x"`},
		{[]string{"--timeout", "-1s"}, `--timeout needs a duration such as 5s (0: none), got "-1s"`},
	} {
		out, errOut, code := runIsolated(t, append(append([]string{"grep"}, tc.args...), "foo", "a.txt")...)
		want := "gopi grep: " + tc.want + " (see 'gopi grep --help')\n"
		if code != exitError || out != "" || errOut != want {
			t.Errorf("grep %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, want)
		}
	}
	// 0 is a count like any other.
	if out, errOut, code := runIsolated(t, "grep", "-A", "0", "-m", "0", "foo", "a.txt"); code != 0 || out != "1:foo\n" {
		t.Errorf("-A 0 -m 0: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// When filters leave nothing to search in the current directory, a hint
// says so on stderr (as ripgrep does); the exit status stays 1. Named
// paths, searches that read files, --files and searches without filters
// get no hint.
func TestGrepHintsWhenFiltersLeaveNothing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("foo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	const hint = "gopi grep: no file was searched: %s left out every file here; check them (--files lists what a search would read)\n"
	for _, tc := range []struct {
		args     []string
		wantHint string // "" for none
	}{
		{[]string{"-g", "*.zzz", "foo"}, fmt.Sprintf(hint, "-g")},
		{[]string{"--iglob", "*.ZZZ", "-t", "go", "foo"}, fmt.Sprintf(hint, "--iglob, -t")},
		{[]string{"-T", "txt", "-q", "foo"}, fmt.Sprintf(hint, "-T")},
		{[]string{"--max-filesize", "1", "zzz"}, "gopi grep: a.txt: file is over the size limit: 4 bytes, limit 1 (raise or drop the limit: --max-filesize)\n" + fmt.Sprintf(hint, "--max-filesize")},
		{[]string{"-g", "*.zzz", "foo", "."}, ""},
		{[]string{"-g", "*.txt", "zzz"}, ""},
		{[]string{"--files", "-g", "*.zzz"}, ""},
		{[]string{"zzz"}, ""},
	} {
		out, errOut, code := runIsolated(t, append([]string{"grep"}, tc.args...)...)
		if code != 1 || out != "" || errOut != tc.wantHint {
			t.Errorf("grep %q: exit %d, stdout %q, stderr %q; want exit 1 and stderr %q", tc.args, code, out, errOut, tc.wantHint)
		}
	}
	// In a directory holding no file at all, the filters are not why.
	t.Chdir(t.TempDir())
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runIsolated(t, "grep", "-g", "*.zzz", "foo"); code != 1 || out != "" || errOut != "" {
		t.Errorf("empty tree: exit %d, stdout %q, stderr %q; want exit 1 and nothing", code, out, errOut)
	}
}

// Settings that cannot be read for lack of permission stop no engine
// command: one warning, then the search on the defaults. The commands
// that need the settings still refuse to run.
func TestUnreadableSettingsWarnForEngines(t *testing.T) {
	denied := fmt.Errorf("config: %w", &config.FileError{Path: "/home/x/.gopi/agent/config.json",
		Err: &fs.PathError{Op: "open", Path: "/home/x/.gopi/agent/config.json", Err: syscall.EACCES}})
	load := func(o config.LoadOptions) (*config.Config, error) {
		if !o.NoFiles {
			return nil, denied
		}
		return config.Load(o)
	}
	// runLoading is runIsolated with the settings read by load.
	runLoading := func(load func(config.LoadOptions) (*config.Config, error), args ...string) (stdout, stderr string, code int) {
		return runIsolatedWith(t, func(env *cliEnv) { env.loadSettings = load }, args...)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("foo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out, errOut, code := runLoading(load, "grep", "foo", "a.txt")
	want := "gopi grep: warning: the settings could not be read (/home/x/.gopi/agent/config.json: Permission denied); going on with the defaults (give gopi read access to them, or point HOME elsewhere)\n"
	if code != 0 || out != "1:foo\n" || errOut != want {
		t.Errorf("grep: exit %d, stdout %q, stderr %q; want the match and %q", code, out, errOut, want)
	}
	if _, errOut, code := runLoading(load, "models"); code != exitError || !strings.Contains(errOut, "permission denied") {
		t.Errorf("models: exit %d, stderr %q; want exit 2 with the error", code, errOut)
	}
	// Any other error is still an error.
	bad := func(config.LoadOptions) (*config.Config, error) { return nil, fmt.Errorf("config: bad value") }
	if _, errOut, code := runLoading(bad, "grep", "foo", "a.txt"); code != exitError || errOut != "gopi grep: config: bad value\n" {
		t.Errorf("grep with a bad setting: exit %d, stderr %q", code, errOut)
	}
}

// asOtherUser prepares running the test binary (as gopi, with
// GOPI_TEST_RUN_MAIN=1) as a user without root's rights: prefix is the
// command that drops them (none when the test does not run as root), exe
// the binary that user can reach, base a fresh directory it can enter.
func asOtherUser(t *testing.T) (prefix []string, exe, base string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	base = t.TempDir()
	if os.Geteuid() != 0 {
		return nil, exe, base
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("running as root without setpriv to drop the rights")
	}
	prefix = []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"}
	// The other user runs a copy of the test binary it can reach.
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	exe = filepath.Join(base, "gopi.test")
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{base, filepath.Dir(base)} { // t.TempDir's two levels, made 0700
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return prefix, exe, base
}

// The same through the real files: gopi run as a user who cannot enter
// the home directory HOME names (root's, after setpriv or sudo -u).
func TestUnreadableHomeStillGreps(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	prefix, exe, base := asOtherUser(t)
	home := filepath.Join(base, "home")
	agentDir := filepath.Join(home, ".gopi", "agent")
	work := filepath.Join(base, "work")
	for _, d := range []string{agentDir, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(agentDir, "config.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "a.txt"), []byte("foo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mode := os.FileMode(0o700) // root's: not the other user's to enter
	if prefix == nil {
		mode = 0 // nobody's
	}
	if err := os.Chmod(home, mode); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(home, 0o755)
	args := append(prefix, exe, "grep", "foo", work)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = work
	cmd.Env = []string{"GOPI_TEST_RUN_MAIN=1", "HOME=" + home, "PATH=" + os.Getenv("PATH")}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil || stdout.String() != work+"/a.txt:1:foo\n" || strings.Count(stderr.String(), "warning") != 1 {
		t.Fatalf("%v: stdout %q, stderr %q; want the match and one warning", err, stdout.String(), stderr.String())
	}
}
