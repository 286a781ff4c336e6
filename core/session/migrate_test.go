package session

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/internal/golden"
)

// copyFixture copies testdata/<name> into a temporary directory.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkGolden compares a file with testdata/golden/<name> (-update rewrites it).
func checkGolden(t *testing.T, path, name string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "golden", name), string(got))
}

// INVENTORY §5 check 2.
func TestMigrateV1(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "migrate/v1.jsonl")
	opts := testOptions(t)
	m := must[*Manager](t)(Open(p, opts))
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "migrated-v1.jsonl")
	if h := m.Header(); h.Version != 3 || h.ID != "0b5c7e1e-v1" {
		t.Errorf("header %+v", h)
	}
	if probs := m.Problems(); len(probs) != 1 || probs[0].Line != 5 {
		t.Errorf("problems %v", probs)
	}
	es := m.Entries()
	if len(es) != 6 {
		t.Fatalf("%d entries", len(es))
	}
	for i, e := range es {
		if len(e.ID) != 8 || (i == 0) != (e.ParentID == "") || (i > 0 && e.ParentID != es[i-1].ID) {
			t.Errorf("entry %d: id %q parent %q", i, e.ID, e.ParentID)
		}
	}
	if c := es[4].Compaction; c == nil || c.FirstKeptEntryID != es[2].ID {
		t.Errorf("compaction %+v, want firstKeptEntryId %s", c, es[2].ID)
	}
	if _, ok := es[3].Message.(*message.Custom); !ok {
		t.Errorf("hookMessage decoded as %T", es[3].Message)
	}
	got := texts(m.BuildContext().Messages)
	want := []string{"compactionSummary:", "user:second", "custom:", "user:third"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("context %q, want %q", got, want)
	}
	// Reopening the migrated file changes nothing.
	before, _ := os.ReadFile(p)
	must[*Manager](t)(Open(p, Options{}))
	if after, _ := os.ReadFile(p); string(after) != string(before) {
		t.Error("reopening a migrated file rewrote it")
	}
}

func TestMigrateV2(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "migrate/v2.jsonl")
	m := must[*Manager](t)(Open(p, testOptions(t)))
	checkGolden(t, p, "migrated-v2.jsonl")
	if h := m.Header(); h.Version != 3 || h.Title != "Old one" {
		t.Errorf("header %+v", h)
	}
	c, ok := m.Entry("aaaa0002").Message.(*message.Custom)
	if !ok || c.Content.Text() != "remember" || c.Display {
		t.Errorf("hook message: %#v", m.Entry("aaaa0002").Message)
	}
	if got := texts(m.BuildContext().Messages); !reflect.DeepEqual(got, []string{"user:hello", "custom:", "assistant:hi"}) {
		t.Errorf("context %q", got)
	}
}
