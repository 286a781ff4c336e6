package session

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// A compaction written by omp 14.9.9 (testdata/omp/compact*.jsonl, made by
// scripts/omp-fixtures.sh) reloads as omp itself rebuilt it: the context at
// the compaction entry is, message for message and field for field, what
// omp's get_messages answered right after the compact command (the RPC
// transcripts in core/modes/rpc/testdata/omp). Both a cut at a user message
// and a split turn (the cut on an assistant message) are covered.
func TestOmpCompactionReload(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"compact", "compact-split"} {
		t.Run(name, func(t *testing.T) {
			m := must[*Manager](t)(Open(copyFixture(t, "omp/"+name+".jsonl"), Options{}))
			var comp *Entry
			for _, e := range m.Entries() {
				if e.Compaction != nil {
					comp = e
				}
			}
			if comp == nil {
				t.Fatal("no compaction entry in the fixture")
			}
			got, err := json.Marshal(m.contextAtID(comp.ID).Messages)
			if err != nil {
				t.Fatal(err)
			}
			want := ompMessages(t, "../modes/rpc/testdata/omp/"+name+".stdout.jsonl", "req-6")
			if !reflect.DeepEqual(decodeAny(t, got), decodeAny(t, want)) {
				t.Errorf("context at the compaction differs from omp's\n got: %s\nwant: %s", got, want)
			}

			// At the leaf (one more prompt and answer): summary, kept
			// entries, then the newer ones.
			c := m.BuildContext()
			atComp := m.contextAtID(comp.ID).Messages
			first, _ := json.Marshal(c.Messages[0])
			firstAt, _ := json.Marshal(atComp[0])
			if len(c.Messages) != len(atComp)+2 || string(first) != string(firstAt) {
				t.Errorf("leaf context has %d messages, %d at the compaction", len(c.Messages), len(atComp))
			}
		})
	}
}

// ompMessages returns data.messages of the response with the given id in
// an RPC transcript.
func ompMessages(t *testing.T, path, id string) json.RawMessage {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var fr struct {
			ID   string `json:"id"`
			Type string `json:"type"`
			Data struct {
				Messages json.RawMessage `json:"messages"`
			} `json:"data"`
		}
		if json.Unmarshal(sc.Bytes(), &fr) == nil && fr.Type == "response" && fr.ID == id {
			return fr.Data.Messages
		}
	}
	t.Fatalf("no response %s in %s", id, path)
	return nil
}

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
