package sessiongen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// small is a generation that has every feature and runs quickly.
func small(dir string, seed uint64) Options {
	return Options{Dir: filepath.Join(dir, "sessions"), BlobDir: filepath.Join(dir, "blobs"), Cwd: "/work/project",
		Entries: 3000, Bytes: 3_000_000, Seed: seed, CompactAt: 20_000, KeepRecent: 4_000}
}

// TestWrite: the file is what the options ask for, loads without a
// problem, ends on an answer whose usage is below the compaction point,
// and the same seed gives the same bytes.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	o := small(dir, 7)
	st, err := Write(o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Entries < o.Entries || st.Entries > o.Entries+200 {
		t.Errorf("%d entries, want about %d", st.Entries, o.Entries)
	}
	if st.Bytes < o.Bytes*8/10 || st.Bytes > o.Bytes*12/10 {
		t.Errorf("%d bytes, want about %d", st.Bytes, o.Bytes)
	}
	if st.Compactions < 3 || st.Branches < 2 || st.Images < 1 {
		t.Errorf("compactions %d, branches %d, images %d: want some of each", st.Compactions, st.Branches, st.Images)
	}
	m, err := session.Open(st.Path, session.Options{BlobDir: o.BlobDir})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	kinds := map[string]int{}
	for _, e := range m.Entries() {
		kinds[e.Type]++
	}
	for _, k := range []string{session.TypeMessage, session.TypeCompaction, session.TypeBranchSummary, session.TypeModelChange,
		session.TypeThinkingLevelChange, session.TypeCustom, session.TypeCustomMessage, session.TypeLabel, session.TypeTTSRInjection} {
		if kinds[k] == 0 {
			t.Errorf("no %s entry: %v", k, kinds)
		}
	}
	if p := m.Problems(); len(p) != 0 {
		t.Errorf("problems: %v", p)
	}
	leaf := m.Leaf()
	if leaf.Type != session.TypeMessage || leaf.Message.MessageRole() != "assistant" {
		t.Fatalf("leaf is a %s entry", leaf.Type)
	}
	if u := leaf.Message.(*ai.AssistantMessage).Usage; u.Input+u.CacheRead+u.CacheWrite > o.CompactAt*3/2 {
		t.Errorf("the last answer's prompt was %d tokens, well over the compaction point %d", u.Input+u.CacheRead+u.CacheWrite, o.CompactAt)
	}
	c := m.BuildContext()
	if c.Messages[0].MessageRole() != "compactionSummary" {
		t.Errorf("context starts with a %s message, want the latest compaction's summary", c.Messages[0].MessageRole())
	}

	again, err := Write(small(t.TempDir(), 7))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(st.Path)
	b, _ := os.ReadFile(again.Path)
	if !bytes.Equal(a, b) || filepath.Base(st.Path) != filepath.Base(again.Path) {
		t.Error("the same options gave different files")
	}
}
