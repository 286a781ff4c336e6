package session

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestEncodeCwdAndDirs(t *testing.T) {
	t.Parallel()
	for cwd, want := range map[string]string{
		"/work/pi":        "--work-pi--",
		"/":               "----",
		`C:\Users\me\src`: "--C--Users-me-src--",
		`\\srv\share`:     "---srv-share--",
	} {
		if got := EncodeCwd(cwd); got != want {
			t.Errorf("EncodeCwd(%q) = %q, want %q", cwd, got, want)
		}
	}
	l := Locations{Roots: []string{"/g/sessions", "/o/sessions"}, Home: "/home/me", Temp: "/tmp"}
	want := []string{"/g/sessions/--home-me-src-x--", "/g/sessions/-src-x", "/o/sessions/--home-me-src-x--", "/o/sessions/-src-x"}
	if got := l.ProjectDirs("/home/me/src/x"); !reflect.DeepEqual(got, want) {
		t.Errorf("ProjectDirs = %q", got)
	}
	if got := l.ProjectDirs("/tmp/omp-fixtures/text/project"); got[1] != "/g/sessions/-tmp-omp-fixtures-text-project" {
		t.Errorf("temp dir name %q", got[1])
	}
	if got := l.ProjectDirs("/home/me"); got[1] != "/g/sessions/-" {
		t.Errorf("home dir name %q", got[1])
	}
	if got := l.NewSessionDir("/w"); got != "/g/sessions/--w--" {
		t.Errorf("NewSessionDir %q", got)
	}
	l.SessionDir = "/custom"
	if l.NewSessionDir("/w") != "/custom" || !reflect.DeepEqual(l.ProjectDirs("/w"), []string{"/custom"}) {
		t.Error("--session-dir not used")
	}
}

func TestListContinueResolve(t *testing.T) {
	root := t.TempDir()
	gopiRoot, ompRoot := filepath.Join(root, "gopi"), filepath.Join(root, "omp")
	l := Locations{Roots: []string{gopiRoot, ompRoot}, Home: "/home/me"}
	cwd := "/home/me/proj"
	seed := byte(0)
	mk := func(dir, first string, age time.Duration) *Manager {
		opts := testOptions(t)
		seed++
		opts.Dir, opts.Cwd, opts.Rand = dir, cwd, rand.NewChaCha8([32]byte{seed})
		m := must[*Manager](t)(Create(opts))
		must[string](t)(m.AppendMessage(user(first)))
		must[string](t)(m.AppendMessage(assistant("ok")))
		m.Close()
		ts := time.Now().Add(-age)
		os.Chtimes(m.File(), ts, ts)
		return m
	}
	old := mk(filepath.Join(gopiRoot, EncodeCwd(cwd)), "old one", 3*time.Hour)
	omp := mk(filepath.Join(ompRoot, "-proj"), "from omp", 2*time.Hour)
	newest := mk(filepath.Join(gopiRoot, EncodeCwd(cwd)), "newest", time.Hour)
	other := mk(filepath.Join(gopiRoot, EncodeCwd("/elsewhere")), "elsewhere", 0)
	os.WriteFile(filepath.Join(gopiRoot, EncodeCwd(cwd), "junk.jsonl"), []byte("nope\n"), 0o644)

	infos := must[[]Info](t)(List(l, cwd))
	var firsts []string
	for _, in := range infos {
		firsts = append(firsts, in.FirstMessage)
	}
	if !reflect.DeepEqual(firsts, []string{"newest", "from omp", "old one"}) {
		t.Errorf("List: %q", firsts)
	}
	if in := infos[0]; in.ID != newest.SessionID() || in.Cwd != cwd || in.MessageCount != 2 || in.Size == 0 || in.Created.IsZero() {
		t.Errorf("info %+v", in)
	}
	all := must[[]Info](t)(ListAll(l))
	if len(all) != 4 || all[0].Path != other.File() {
		t.Errorf("ListAll: %d, first %s", len(all), all[0].Path)
	}

	m := must[*Manager](t)(ContinueRecent(l, cwd, Options{}))
	if m.File() != newest.File() {
		t.Errorf("ContinueRecent opened %s", m.File())
	}
	fresh := must[*Manager](t)(ContinueRecent(l, "/nowhere", Options{}))
	if !strings.HasPrefix(fresh.File(), filepath.Join(gopiRoot, "--nowhere--")) {
		t.Errorf("new session at %s", fresh.File())
	}

	if p := must[string](t)(Resolve(l, cwd, omp.SessionID()[:20])); p != omp.File() {
		t.Errorf("Resolve by id prefix: %s", p)
	}
	if p := must[string](t)(Resolve(l, cwd, other.SessionID())); p != other.File() {
		t.Errorf("Resolve global: %s", p)
	}
	if p := must[string](t)(Resolve(l, cwd, old.File())); p != old.File() {
		t.Errorf("Resolve by path: %s", p)
	}
	_, err := Resolve(l, cwd, "019c") // every id starts with the same time prefix
	if !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), newest.SessionID()) {
		t.Errorf("ambiguous: %v", err)
	}
	if _, err := Resolve(l, cwd, "zzzz"); !errors.Is(err, ErrNoMatch) {
		t.Errorf("no match: %v", err)
	}
}

func TestFork(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	m := must[*Manager](t)(Create(opts))
	a := must[string](t)(m.AppendMessage(user("a")))
	must[string](t)(m.Record(Label{TargetID: a, Label: "start"}))
	b := must[string](t)(m.AppendMessage(assistant("b")))
	must[string](t)(m.AppendMessage(user("c")))
	must[bool](t)(m.SetName("Forked", TitleUser))

	full := must[*Manager](t)(m.Fork("", opts))
	if h := full.Header(); h.ParentSession != m.SessionID() || h.Title != "Forked" || h.ID == m.SessionID() {
		t.Errorf("full fork header %+v", h)
	}
	if len(full.Entries()) != 4 || full.LeafID() != m.LeafID() {
		t.Errorf("full fork: %d entries", len(full.Entries()))
	}
	if lines := readLines(t, full.File()); len(lines) != 5 {
		t.Errorf("full fork file: %d lines", len(lines))
	}

	part := must[*Manager](t)(m.Fork(b, opts))
	es := part.Entries()
	if h := part.Header(); h.ParentSession != m.File() || h.Title != "" {
		t.Errorf("branched fork header %+v", h)
	}
	if len(es) != 3 || es[0].ID != a || es[1].ID != b || es[2].Label == nil || es[2].ParentID != b || part.Label(a) != "start" {
		t.Errorf("branched fork entries: %d", len(es))
	}
	if _, err := m.Fork("nope", opts); !errors.Is(err, ErrNotFound) {
		t.Errorf("fork unknown: %v", err)
	}
	ff := must[*Manager](t)(ForkFile(m.File(), "", opts))
	if got := texts(ff.BuildContext().Messages); !reflect.DeepEqual(got, []string{"user:a", "assistant:b", "user:c"}) {
		t.Errorf("ForkFile context %q", got)
	}
	// Forking an old file migrates the copy, not the source.
	src := copyFixture(t, "migrate/v2.jsonl")
	before, _ := os.ReadFile(src)
	must[*Manager](t)(ForkFile(src, "", opts))
	if after, _ := os.ReadFile(src); string(after) != string(before) {
		t.Error("ForkFile changed its source")
	}
}

func TestListNestsSubagentSessions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l := Locations{SessionDir: dir}
	opts := testOptions(t)
	opts.Dir, opts.Cwd = dir, "/p"
	parent := must[*Manager](t)(Create(opts))
	must[string](t)(parent.AppendMessage(user("parent")))
	must[string](t)(parent.AppendMessage(assistant("ok")))
	parent.Close()
	sub := parent.Artifacts().Dir()
	mkChild := func(name, link, first string) string {
		o := testOptions(t)
		o.Cwd, o.ParentSession = "/p", link
		m := must[*Manager](t)(Open(filepath.Join(sub, name), o))
		must[string](t)(m.AppendMessage(user(first)))
		must[string](t)(m.AppendMessage(assistant("ok")))
		m.Close()
		return m.File()
	}
	outer := mkChild("0-Outer.jsonl", parent.File(), "outer")
	mkChild("0-Outer.0-Inner.jsonl", outer, "inner")
	mkChild("1-Tests.jsonl", parent.File(), "tests")
	mkChild("2-Lost.jsonl", filepath.Join(sub, "gone.jsonl"), "lost")
	// Files there that are not subagent sessions are ignored.
	os.WriteFile(filepath.Join(sub, "3.bash.log"), []byte("x"), 0o644)
	o := testOptions(t)
	o.Cwd = "/p"
	plain := must[*Manager](t)(Open(filepath.Join(sub, "plain.jsonl"), o))
	plain.Close()

	infos := must[[]Info](t)(List(l, "/p"))
	if len(infos) != 1 {
		t.Fatalf("listed %d sessions, want the parent only", len(infos))
	}
	var render func(in []Info, depth int) []string
	render = func(in []Info, depth int) []string {
		var out []string
		for _, c := range in {
			out = append(out, strings.Repeat(" ", depth)+c.FirstMessage)
			out = append(out, render(c.Children, depth+1)...)
		}
		return out
	}
	got := render(infos, 0)
	want := []string{"parent", " outer", "  inner", " tests", " lost"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
