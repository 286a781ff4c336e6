package github

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/golden"
)

// clock is a settable time for the cache.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// newReader is a Reader over a fresh cache directory with the default
// TTLs (5 minutes, 7 days) and the clock c.
func newReader(t *testing.T, c *clock) *Reader {
	t.Helper()
	env := tool.NewEnv(t.TempDir())
	env.Settings.GitHub.CacheDir = filepath.Join(t.TempDir(), "cache")
	r := NewReader(env)
	r.now = c.now
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// read reads url through r and fails the test on an error.
func read(t *testing.T, r *Reader, url string) string {
	t.Helper()
	c, err := r.ReadURI(context.Background(), url)
	if err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return c.Content
}

// The issue and pull request views, and the gh commands behind them.
func TestSchemeViewsGolden(t *testing.T) {
	f := installFake(t,
		fakeRule{Match: []string{"repo view"}, Answers: []fakeAnswer{{Stdout: "gopi-agent/gopi\n"}}},
		answer("issue12.json", "issue view 12"),
		answer("pr34.json", "pr view 34"),
		answer("pr34.diff", "pr diff 34"),
		answer("issues_list.json", "issue list"))
	r := newReader(t, &clock{time.Unix(1e9, 0)})
	for name, url := range map[string]string{
		"issue12":      "issue://12",
		"issue12_long": "issue://gopi-agent/gopi/12?comments=0",
		"pr34":         "pr://34",
		"pr34_diff":    "pr://34/diff",
		"pr34_diff_2":  "pr://34/diff/2",
		"issues_list":  "issue://gopi-agent/gopi?state=all&label=bug",
	} {
		golden.Check(t, filepath.Join("testdata", "golden", "read_"+name+".txt"), read(t, r, url)+"\n")
	}
	if all := read(t, r, "pr://34/diff/all"); !strings.HasPrefix(all, "diff --git a/cache.go") {
		t.Errorf("diff/all: %q", all)
	}
	var diffs, repoViews int
	for _, c := range f.calls() {
		switch strings.Join(c[:2], " ") {
		case "pr diff":
			diffs++
		case "repo view":
			repoViews++
		}
	}
	if diffs != 1 || repoViews != 1 {
		t.Errorf("gh pr diff ran %d times, gh repo view %d; want each once (cached)", diffs, repoViews)
	}
	for _, bad := range []string{"issue://abc", "pr://34/files", "pr://34/diff/9", "issue://?state=merged"} {
		if _, err := r.ReadURI(context.Background(), bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// Within the soft TTL a view is served from the cache; between the soft
// and the hard TTL it is served and refreshed in the background; past
// the hard TTL it is fetched before it is served.
func TestSchemeCacheTTL(t *testing.T) {
	f := installFake(t, fakeRule{Match: []string{"issue view 12"}, Answers: []fakeAnswer{
		{Stdout: readString("testdata/issue12.json")}, {Stdout: readString("testdata/issue12b.json")}, {Stdout: readString("testdata/issue12.json")}}})
	c := &clock{time.Unix(1e9, 0)}
	r := newReader(t, c)
	const url = "issue://gopi-agent/gopi/12"
	views := func() int { return countCalls(f, "issue view") }
	first := read(t, r, url)
	c.t = c.t.Add(4 * time.Minute)
	if got := read(t, r, url); got != first || views() != 1 {
		t.Fatalf("fresh view refetched (%d calls)", views())
	}
	c.t = c.t.Add(2 * time.Minute) // 6 min: stale
	if got := read(t, r, url); got != first {
		t.Fatal("stale view not served as it was")
	}
	r.Wait()
	if n := views(); n != 2 {
		t.Fatalf("stale view: %d gh calls, want 2 (one refresh)", n)
	}
	second := read(t, r, url)
	if !strings.Contains(second, "It crashes (edited).") {
		t.Fatalf("refreshed view not stored: %s", second)
	}
	c.t = c.t.Add(8 * 24 * time.Hour) // past the hard TTL
	if got := read(t, r, url); got != first || views() != 3 {
		t.Fatalf("expired view served from the cache (%d calls)", views())
	}
	// Another Reader on the same directory (a new session) sees the cache.
	r2 := NewReader(tool.NewEnv(t.TempDir()))
	r2.cache, r2.enabled, r2.soft, r2.hard, r2.now = r.cache, true, r.soft, r.hard, c.now
	defer r2.Close()
	if got := read(t, r2, url); got != first || views() != 3 {
		t.Fatalf("cache not shared through the disk (%d calls)", views())
	}
	// Another account (gh now has a token) does not see those views.
	f.setRules(fakeRule{Match: []string{"auth token"}, Answers: []fakeAnswer{{Stdout: "gho_other\n"}}},
		fakeRule{Match: []string{"issue view 12"}, Answers: []fakeAnswer{{Stdout: readString("testdata/issue12b.json")}}})
	r3 := NewReader(tool.NewEnv(t.TempDir()))
	r3.cache, r3.enabled, r3.soft, r3.hard, r3.now = r.cache, true, r.soft, r.hard, c.now
	defer r3.Close()
	if got := read(t, r3, url); got == first || views() != 4 {
		t.Fatal("a view cached for one credential was served for another")
	}
}

// countCalls counts the fake's calls whose arguments contain s.
func countCalls(f *fake, s string) int {
	n := 0
	for _, c := range f.calls() {
		if strings.Contains(strings.Join(c, " "), s) {
			n++
		}
	}
	return n
}

// With github.cache.enabled off every read asks gh.
func TestSchemeCacheDisabled(t *testing.T) {
	f := installFake(t, answer("issue12.json", "issue view 12"))
	r := newReader(t, &clock{time.Unix(1e9, 0)})
	r.enabled = false
	read(t, r, "issue://a/b/12")
	read(t, r, "issue://a/b/12")
	if n := countCalls(f, "issue view"); n != 2 {
		t.Errorf("%d gh calls, want 2", n)
	}
}

// Outside a GitHub checkout, issue://N says how to name the repository.
func TestSchemeNoCheckout(t *testing.T) {
	installFake(t, failing("failed to run git: fatal: not a git repository (or any of the parent directories): .git", "repo view"))
	r := newReader(t, &clock{time.Unix(1e9, 0)})
	_, err := r.ReadURI(context.Background(), "issue://12")
	if err == nil || !strings.Contains(err.Error(), "issue://<owner>/<repo>/<number>") {
		t.Errorf("got %v", err)
	}
}

// A gh whose repo view answers something that is not owner/name (a
// broken or hostile gh printing "{}") is refused with a clear message,
// and nothing is run with that answer as the repository.
func TestCheckoutRepoValidated(t *testing.T) {
	for _, bad := range []string{"{}", "", "owner", "a/b/c", "--exec=x/y", "o/..", "o/na me", "\x1b[31mo/r"} {
		f := installFake(t,
			fakeRule{Match: []string{"repo view"}, Answers: []fakeAnswer{{Stdout: bad + "\n"}}},
			answer("issue12.json", "issue view 12"),
			fakeRule{Match: []string{"api"}, Answers: []fakeAnswer{{Stdout: `{"total_count":0,"items":[]}`}}})
		r := newReader(t, &clock{time.Unix(1e9, 0)})
		_, err := r.ReadURI(context.Background(), "issue://12")
		if err == nil || !strings.Contains(err.Error(), "which is not owner/name") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v", bad, err)
		}
		text, failed := call(t, newTool(t), map[string]any{"op": "run_watch"})
		if !failed || !strings.Contains(text, "which is not owner/name") {
			t.Errorf("%q: run_watch: %s", bad, text)
		}
		for _, c := range f.calls() {
			if slices.Contains(c, "--repo") || slices.Contains(c, "view") && c[0] != "repo" {
				t.Errorf("%q: gh ran %q", bad, c)
			}
		}
	}
	for _, good := range []string{"gopi-agent/gopi", "o/r.go", "O-1/_x-y.z"} {
		if !validRepoName(good) {
			t.Errorf("%q refused", good)
		}
	}
}

// A gh that hangs on every call costs a read one gh timeout in all: once
// the credential lookup has used it up, the view is not even started.
func TestSchemeReadHasOneBound(t *testing.T) {
	f := installFake(t,
		fakeRule{Match: []string{"auth token"}, Answers: []fakeAnswer{{Hang: true}}},
		fakeRule{Match: []string{"issue view"}, Answers: []fakeAnswer{{Hang: true}}})
	r := newReader(t, &clock{time.Unix(1e9, 0)})
	r.gh.Timeout = 500 * time.Millisecond
	_, err := r.ReadURI(context.Background(), "issue://acme/widget/40")
	if err == nil || err.Error() != "gh did not answer within 500ms while reading issue://acme/widget/40 and was stopped; check the network and `gh auth status`, then retry." {
		t.Errorf("got %v", err)
	}
	for _, c := range f.calls() {
		if slices.Contains(c, "issue") {
			t.Errorf("gh ran %q after the read's time was up", c)
		}
	}
}
