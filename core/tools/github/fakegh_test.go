package github

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The fake gh: this test binary, run through a symlink named gh on PATH.
// It appends its arguments to $FAKE_GH_DIR/calls (one JSON array a
// line) and answers with the first rule of $FAKE_GH_DIR/rules.json whose
// Match strings all occur in its arguments; a rule with several answers
// gives them in turn (the last one repeats).

// fakeRule is one canned answer set.
type fakeRule struct {
	Match   []string     `json:"match"`
	Answers []fakeAnswer `json:"answers"`
}

// fakeAnswer is what gh prints and how it exits.
type fakeAnswer struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Exit   int    `json:"exit"`
	Hang   bool   `json:"hang"` // never answer (after signalling $FAKE_GH_DIR/hanging, when it is a FIFO)
}

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "gh" {
		os.Exit(fakeGH(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeGH plays gh.
func fakeGH(args []string) int {
	dir := os.Getenv("FAKE_GH_DIR")
	line, _ := json.Marshal(args)
	f, err := os.OpenFile(filepath.Join(dir, "calls"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		_, _ = f.Write(append(line, '\n'))
		_ = f.Close()
	}
	data, err := os.ReadFile(filepath.Join(dir, "rules.json"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake gh: no rules")
		return 2
	}
	var rules []fakeRule
	if err := json.Unmarshal(data, &rules); err != nil {
		fmt.Fprintln(os.Stderr, "fake gh: bad rules:", err)
		return 2
	}
	joined := strings.Join(args, " ")
	for i, r := range rules {
		ok := true
		for _, m := range r.Match {
			ok = ok && strings.Contains(joined, m)
		}
		if !ok {
			continue
		}
		counter := filepath.Join(dir, "count-"+strconv.Itoa(i))
		n, _ := strconv.Atoi(readString(counter))
		_ = os.WriteFile(counter, []byte(strconv.Itoa(n+1)), 0o600)
		a := r.Answers[min(n, len(r.Answers)-1)]
		if a.Hang {
			// Tell a waiting test (hangFifo), then never answer.
			if w, err := os.OpenFile(filepath.Join(dir, "hanging"), os.O_WRONLY, 0); err == nil {
				_, _ = w.Write([]byte{1})
				_ = w.Close()
			}
			time.Sleep(time.Hour)
		}
		fmt.Fprint(os.Stdout, a.Stdout)
		fmt.Fprint(os.Stderr, a.Stderr)
		return a.Exit
	}
	fmt.Fprintf(os.Stderr, "fake gh: no rule for %q\n", joined)
	return 1
}

// readString is a file's content, "" when unreadable.
func readString(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// fake is a fake gh installed on PATH for one test.
type fake struct {
	t   *testing.T
	dir string
}

// installFake puts the fake gh first on PATH with rules.
func installFake(t *testing.T, rules ...fakeRule) *fake {
	t.Helper()
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(bin, "gh")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_GH_DIR", dir)
	f := &fake{t: t, dir: dir}
	f.setRules(rules...)
	return f
}

// setRules replaces the fake's rules and resets their counters.
func (f *fake) setRules(rules ...fakeRule) {
	f.t.Helper()
	data, err := json.Marshal(rules)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "rules.json"), data, 0o600); err != nil {
		f.t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(f.dir, "count-*"))
	for _, m := range matches {
		_ = os.Remove(m)
	}
}

// calls are the argument lists gh was called with, in order.
func (f *fake) calls() [][]string {
	f.t.Helper()
	var out [][]string
	for _, line := range strings.Split(strings.TrimSpace(readString(filepath.Join(f.dir, "calls"))), "\n") {
		if line == "" {
			continue
		}
		var args []string
		if err := json.Unmarshal([]byte(line), &args); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, args)
	}
	return out
}

// answer is a rule with one answer: stdout from a testdata file.
func answer(file string, match ...string) fakeRule {
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		panic(err)
	}
	return fakeRule{Match: match, Answers: []fakeAnswer{{Stdout: string(data)}}}
}

// failing is a rule that exits 1 with stderr.
func failing(stderr string, match ...string) fakeRule {
	return fakeRule{Match: match, Answers: []fakeAnswer{{Stderr: stderr, Exit: 1}}}
}

// waitHang makes $FAKE_GH_DIR/hanging a FIFO and blocks until a hanging
// fake gh has reached it.
func (f *fake) waitHang() {
	f.t.Helper()
	path := filepath.Join(f.dir, "hanging")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		f.t.Fatal(err)
	}
	r, err := os.Open(path) // blocks until the fake opens it for writing
	if err != nil {
		f.t.Fatal(err)
	}
	_, _ = r.Read(make([]byte, 1))
	_ = r.Close()
}
