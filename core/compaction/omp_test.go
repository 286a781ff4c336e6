package compaction

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/core/session"
)

// omp 14.9.9 compacted these sessions (core/session/testdata/omp, see its
// README) with keepRecentTokens 50 and 60, counting with cl100k_base.
// Counting the same way, Prepare cuts where omp did: at the last user
// message, and at the assistant answer before it (a split turn).
func TestPrepareCutsWhereOmpDid(t *testing.T) {
	for _, tc := range []struct {
		file  string
		keep  int
		split bool
	}{
		{"compact.jsonl", 50, false},
		{"compact-split.jsonl", 60, true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src := filepath.Join("..", "session", "testdata", "omp", tc.file)
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := session.Open(p, session.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			var comp *session.Entry
			for _, e := range m.Entries() {
				if e.Compaction != nil {
					comp = e
				}
			}
			// The path as it was when omp compacted: up to the entry
			// before the compaction.
			before := m.Path(comp.ParentID)
			prep, err := Prepare(before, Settings{KeepRecentTokens: tc.keep, ReserveTokens: 16384}, NewCounter("gpt-4"))
			if err != nil {
				t.Fatal(err)
			}
			if prep.FirstKeptEntryID != comp.Compaction.FirstKeptEntryID || prep.SplitTurn != tc.split {
				t.Errorf("first kept %s split %v; omp kept %s", prep.FirstKeptEntryID, prep.SplitTurn, comp.Compaction.FirstKeptEntryID)
			}
			if prep.TokensBefore != comp.Compaction.TokensBefore {
				t.Errorf("tokensBefore %d, omp %d", prep.TokensBefore, comp.Compaction.TokensBefore)
			}
			if d := prep.FileOps.Lists(); len(d.ReadFiles) != 1 || d.ReadFiles[0] != "greet.go" {
				t.Errorf("files %+v", d)
			}
		})
	}
}
