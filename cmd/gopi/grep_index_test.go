package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/search/index"
)

// indexTree is grepTree plus generated files enough for the index to
// narrow searches: identifiers, numbers and case variants spread over
// nested directories.
func indexTree() map[string]string {
	tree := map[string]string{}
	for k, v := range grepTree {
		tree[k] = v
	}
	words := []string{"alpha", "Bravo", "charlie_delta", "EchoFoxtrot", "golf.hotel", "india(juliet)", "kilo{lima}", "\u212aelvin"}
	for i := range 120 {
		var b strings.Builder
		for j := range 6 {
			w := words[(i*7+j*3)%len(words)]
			fmt.Fprintf(&b, "line %d: %s_%d value=%d\n", j, w, i%13, i*j)
		}
		tree[fmt.Sprintf("gen/d%d/sub%d/file%03d.txt", i%5, i%3, i)] = b.String()
	}
	return tree
}

// gopiRun runs gopi in-process with environ and returns its exit status
// and output.
func gopiRun(t *testing.T, environ []string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), environ: environ}
	code := run(context.Background(), env, args)
	return code, stdout.String(), stderr.String()
}

// TestGrepIndexMatchesWalkAndRipgrep: with an index, gopi grep prints
// what it prints without one and what ripgrep prints, byte for byte,
// after the index is built and after edits, additions and removals with
// and without a refresh.
func TestGrepIndexMatchesWalkAndRipgrep(t *testing.T) {
	rg, rgErr := exec.LookPath("rg")
	dir := t.TempDir()
	for name, data := range indexTree() {
		writeTreeFile(t, dir, name, data)
	}
	t.Chdir(dir)
	environ := isolatedEnviron(t)
	if code, out, errOut := gopiRun(t, environ, "index"); code != 0 || !strings.HasPrefix(out, "indexed "+dir+": ") {
		t.Fatalf("gopi index: exit %d, %q %q", code, out, errOut)
	}
	queries := [][]string{
		{"-n", "foo"}, {"-n", "charlie_delta_7"}, {"-c", "EchoFoxtrot"}, {"-l", "golf\\.hotel_1[02]"},
		{"-n", "-i", "KELVIN_3"}, {"-n", "-w", "alpha_1"}, {"-n", "-F", "india(juliet)_4"}, {"-n", "kilo{lima}"},
		{"-n", "value=4[0-9] *$"}, {"--json", "Bravo_11"}, {"-n", "-e", "alpha_2", "-e", "Bravo_3"},
		{"-n", "(?i)echofox"}, {"-n", "nothing matches this"}, {"-n", "-U", "ab\\ncd"}, {"-o", "-n", "[a-z]+_12 value"},
		{"-n", "alpha_5", "gen"}, {"-n", "-C", "1", "Bravo_9"}, {"-n", "--hidden", "foo"}, {"-c", "-uu", "Bravo"},
		{"-n", "-t", "go", "foo"}, {"-c", "Bravo", "gen/d1"}, {"-n", "foo", "sub/"}, {"-n", "foo", "./sub"}, {"-n", "alpha_3", "gen/d2/sub1", "gen/d3"}, {"-c", "-T", "txt", "alpha"}, {"-c", "--max-depth", "3", "alpha_1"},
	}
	// Where gopi differs from ripgrep on purpose: braces that cannot be a
	// repetition are literal; --json is the search tool's object per match.
	gopiOnly := map[string]bool{"-n kilo{lima}": true, "--json Bravo_11": true}
	compare := func(stage string) {
		t.Helper()
		for _, q := range queries {
			code, out, errOut := gopiRun(t, environ, append([]string{"grep"}, q...)...)
			wcode, wout, _ := gopiRun(t, environ, append([]string{"grep", "--no-index"}, q...)...)
			if out != wout || code != wcode {
				t.Errorf("%s: gopi grep %q with the index: exit %d\n%s%s\nwithout: exit %d\n%s", stage, q, code, out, errOut, wcode, wout)
			}
			if rgErr != nil || gopiOnly[strings.Join(q, " ")] {
				continue
			}
			cmd := exec.Command(rg, append([]string{"--no-config", "--sort", "path"}, q...)...)
			cmd.Dir = dir
			rout, _ := cmd.Output()
			if out != string(rout) {
				t.Errorf("%s: gopi grep %q: %q; rg: %q", stage, q, out, rout)
			}
		}
	}
	compare("built")
	// An edit in place: the file is searched directly.
	writeTreeFile(t, dir, "gen/d0/sub0/file000.txt", "now EchoFoxtrot_0 and Bravo_11 and alpha_5 here\n")
	compare("edited")
	// An addition and a removal: searches walk until the next refresh.
	writeTreeFile(t, dir, "gen/d1/new.txt", "charlie_delta_7 arrived; golf.hotel_10 too\n")
	os.Remove(filepath.Join(dir, "gen/d2/sub2/file002.txt"))
	compare("added and removed")
	if code, out, errOut := gopiRun(t, environ, "index"); code != 0 || !strings.Contains(out, "2 files added or changed, 1 removed") {
		t.Fatalf("gopi index (refresh): exit %d, %q %q", code, out, errOut)
	}
	compare("refreshed")
	if rgErr != nil {
		t.Skip("compared with the walk only: ripgrep (rg) is not installed; scripts/setup.sh installs it")
	}
}

// TestGrepUsesTheIndex: an index is trusted as far as stat can tell. A
// file rewritten with the same size and modification time is not seen
// by a search through the index, and is by a walk: the index was used.
func TestGrepUsesTheIndex(t *testing.T) {
	dir := t.TempDir()
	writeTreeFile(t, dir, "a.txt", "original text\n")
	writeTreeFile(t, dir, "b.txt", "other\n")
	writeTreeFile(t, dir, "d/c.txt", "original text\n")
	t.Chdir(dir)
	environ := isolatedEnviron(t)
	if code, _, errOut := gopiRun(t, environ, "index"); code != 0 {
		t.Fatal(errOut)
	}
	for _, name := range []string{"a.txt", "d/c.txt"} {
		info, _ := os.Stat(name)
		writeTreeFile(t, dir, name, "replaced text\n")
		if err := os.Chtimes(name, time.Time{}, info.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, _ := gopiRun(t, environ, "grep", "replaced"); code != 1 || out != "" {
		t.Errorf("with the index: exit %d, %q; want no match (the index says a.txt lacks it)", code, out)
	}
	if code, out, _ := gopiRun(t, environ, "grep", "--no-index", "replaced"); code != 0 || out != "a.txt:1:replaced text\nd/c.txt:1:replaced text\n" {
		t.Errorf("walking: exit %d, %q", code, out)
	}
	// A subdirectory of the indexed tree is answered from the tree's index.
	if code, out, _ := gopiRun(t, environ, "grep", "replaced", "d"); code != 1 || out != "" {
		t.Errorf("a subdirectory with the index: exit %d, %q; want no match", code, out)
	}
}

// TestIndexCommand: --status, --delete and their errors.
func TestIndexCommand(t *testing.T) {
	dir := t.TempDir()
	writeTreeFile(t, dir, "a.txt", "text\n")
	t.Chdir(dir)
	environ := isolatedEnviron(t)
	if code, _, errOut := gopiRun(t, environ, "index", "--status"); code != 1 || errOut != "gopi index: no usable index of "+dir+"; build it with gopi index "+dir+"\n" {
		t.Errorf("--status without an index: exit %d, %q", code, errOut)
	}
	gopiRun(t, environ, "index")
	code, out, _ := gopiRun(t, environ, "index", "--status")
	if code != 0 || !strings.Contains(out, "files:    1, 1 with their text\n") || !strings.Contains(out, "state:    up to date\n") {
		t.Errorf("--status: exit %d, %q", code, out)
	}
	writeTreeFile(t, dir, "a.txt", "changed text\n")
	if _, out, _ := gopiRun(t, environ, "index", "--status"); !strings.Contains(out, "state:    1 files changed since") {
		t.Errorf("--status after an edit: %q", out)
	}
	// An index a search found damaged: reported, then built anew.
	_, out, _ = gopiRun(t, environ, "index", "--status")
	db, _, _ := strings.Cut(strings.TrimPrefix(out[strings.Index(out, "index:    "):], "index:    "), " (")
	marker := filepath.Join(filepath.Dir(db), "damaged")
	if err := os.WriteFile(marker, []byte("(the list \"dirs\" fails its checksum)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantErr := "gopi index: the index of " + dir + " is damaged (the list \"dirs\" fails its checksum): searches walk instead of using it; gopi index " + dir + " builds it anew\n"
	if code, _, errOut := gopiRun(t, environ, "index", "--status"); code != 1 || errOut != wantErr {
		t.Errorf("--status of a damaged index: exit %d, %q, want %q", code, errOut, wantErr)
	}
	if code, out, _ := gopiRun(t, environ, "index"); code != 0 || !strings.HasPrefix(out, "indexed "+dir+":") {
		t.Errorf("gopi index of a damaged index: exit %d, %q, want a build", code, out)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("the marker is left after the build: %v", err)
	}
	// An index of another format version: --status says so.
	sqldb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sqldb.Exec(`UPDATE meta SET value = '4' WHERE key = 'format'`); err != nil {
		t.Fatal(err)
	}
	sqldb.Close()
	wantErr = "gopi index: the index of " + dir + " cannot be used (format version \"4\", this gopi reads " + strconv.Itoa(index.FormatVersion) + "): searches walk instead; gopi index " + dir + " builds it anew\n"
	if code, _, errOut := gopiRun(t, environ, "index", "--status"); code != 1 || errOut != wantErr {
		t.Errorf("--status of an index of another version: exit %d, %q, want %q", code, errOut, wantErr)
	}
	gopiRun(t, environ, "index")
	if code, out, _ := gopiRun(t, environ, "index", "--delete"); code != 0 || out != "deleted the index of "+dir+"\n" {
		t.Errorf("--delete: exit %d, %q", code, out)
	}
	if code, out, errOut := gopiRun(t, environ, "index", "--delete"); code != 1 || out != "" || errOut != "gopi index: no index of "+dir+" to delete\n" {
		t.Errorf("--delete without an index: exit %d, %q, %q", code, out, errOut)
	}
	if code, _, errOut := gopiRun(t, environ, "index", "missing-dir"); code != 2 || errOut != "gopi index: missing-dir is not a directory; name the tree to index\n" {
		t.Errorf("a missing PATH: exit %d, %q", code, errOut)
	}
}

func writeTreeFile(t *testing.T, dir, name, data string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gopi grep --index on a directory inside an indexed tree refreshes that
// tree's index and reads it, instead of building a second index of the
// subdirectory.
func TestGrepIndexBelowIndexedTree(t *testing.T) {
	dir := t.TempDir()
	writeTreeFile(t, dir, "sub/a.txt", "needle\n")
	writeTreeFile(t, dir, "b.txt", "needle\n")
	t.Chdir(dir)
	ixDir := t.TempDir()
	environ := append(isolatedEnviron(t), "GOPI_INDEX_DIR="+ixDir)
	if code, _, errOut := gopiRun(t, environ, "index"); code != 0 {
		t.Fatalf("gopi index: exit %d, %s", code, errOut)
	}
	writeTreeFile(t, dir, "sub/c.txt", "needle too\n")
	code, out, errOut := gopiRun(t, environ, "grep", "--index", "needle", "sub")
	if code != 0 || out != "sub/a.txt:1:needle\nsub/c.txt:1:needle too\n" {
		t.Errorf("grep --index in a subdirectory: exit %d, %q, %q", code, out, errOut)
	}
	entries, err := os.ReadDir(ixDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("%d indexes after grep --index in a subdirectory of an indexed tree, want the tree's one", len(entries))
	}
	if _, out, _ := gopiRun(t, environ, "index", "--status"); !strings.Contains(out, "files:    3,") {
		t.Errorf("the tree's index was not refreshed: %q", out)
	}
}

// TestIndexFoundThroughSymlink: a tree indexed by its real path is the same
// tree reached through a symbolic link; the index is found and refreshed,
// not built a second time, and the paths printed stay the ones given.
func TestIndexFoundThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	writeTreeFile(t, dir, "a.txt", "needle\n")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	ixDir := t.TempDir()
	environ := append(isolatedEnviron(t), "GOPI_INDEX_DIR="+ixDir)
	if code, _, errOut := gopiRun(t, environ, "index", dir); code != 0 {
		t.Fatalf("gopi index: exit %d, %s", code, errOut)
	}
	writeTreeFile(t, dir, "b.txt", "needle too\n")
	code, out, errOut := gopiRun(t, environ, "grep", "--index", "needle", link)
	want := filepath.Join(link, "a.txt") + ":1:needle\n" + filepath.Join(link, "b.txt") + ":1:needle too\n"
	if code != 0 || out != want {
		t.Errorf("grep --index through a link: exit %d, %q (want %q), %q", code, out, want, errOut)
	}
	if entries, err := os.ReadDir(ixDir); err != nil || len(entries) != 1 {
		t.Errorf("%d indexes (%v) after grep --index through a link to an indexed tree, want the tree's one", len(entries), err)
	}
	if _, out, _ := gopiRun(t, environ, "index", "--status", link); !strings.Contains(out, "files:    2,") {
		t.Errorf("the tree's index, asked through the link, was not refreshed: %q", out)
	}
}
