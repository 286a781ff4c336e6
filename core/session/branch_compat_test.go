package session

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// omp 14.9.9's branch and handoff files (testdata/omp/branch-from.jsonl,
// branch.jsonl, handoff.jsonl; see scripts/omp-fixtures.sh):
//   - Fork at the entry before the branched user message writes the same
//     entry lines omp's branch wrote (omp copies entries as they are), and
//     links the new file by parentSession the same way;
//   - the handoff session's first entry, a custom_message of type
//     "handoff", re-encodes byte for byte as gopi writes that entry;
//   - the handoff session's context is what omp's get_messages answered.
func TestOmpBranchAndHandoff(t *testing.T) {
	t.Parallel()
	from := must[*Manager](t)(Open(copyFixture(t, "omp/branch-from.jsonl"), Options{}))
	branch := must[*Manager](t)(Open(copyFixture(t, "omp/branch.jsonl"), Options{}))
	if p := branch.Header().ParentSession; !strings.HasSuffix(filepath.Base(p), "_"+from.SessionID()+".jsonl") {
		t.Errorf("branch.jsonl's parentSession %q does not name branch-from.jsonl", p)
	}
	// omp branched from the second user message: its file holds the path
	// up to the answer before it.
	var second *Entry
	users := 0
	for _, e := range from.Entries() {
		if e.Type == TypeMessage && e.Message.MessageRole() == "user" {
			if users++; users == 2 {
				second = e
			}
		}
	}
	if second == nil {
		t.Fatal("branch-from.jsonl has no second user message")
	}
	fork := must[*Manager](t)(from.Fork(second.ParentID, Options{Dir: t.TempDir()}))
	if fork.Header().ParentSession != from.File() {
		t.Errorf("fork parentSession %q", fork.Header().ParentSession)
	}
	got, want := readLines(t, fork.File())[1:], readLines(t, branch.File())[1:]
	if len(got) > len(want) || !reflect.DeepEqual(got, want[:len(got)]) {
		t.Errorf("gopi's branch file differs from omp's:\n got %q\nwant %q", got, want[:min(len(want), len(got))])
	}

	h := must[*Manager](t)(Open(copyFixture(t, "omp/handoff.jsonl"), Options{}))
	first := h.Entries()[0]
	if first.Type != TypeCustomMessage || first.CustomMessage.CustomType != "handoff" || !first.CustomMessage.Display ||
		first.CustomMessage.Attribution != "agent" || !strings.HasPrefix(first.CustomMessage.Content.Text(), "<handoff-context>\n") {
		t.Fatalf("first entry %s", first.Raw())
	}
	// What gopi writes for this entry: its encoding, prepared for the file.
	enc, err := first.encode()
	if err == nil {
		enc, err = prepare(enc, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	if string(enc) != string(first.Raw()) {
		t.Errorf("gopi encodes omp's handoff entry differently:\n got %s\nwant %s", enc, first.Raw())
	}
	if p := h.Header().ParentSession; !strings.HasSuffix(filepath.Base(p), "_"+branch.SessionID()+".jsonl") {
		t.Errorf("handoff.jsonl's parentSession %q does not name branch.jsonl", p)
	}
	ctx, err := json.Marshal(h.contextAtID(first.ID).Messages)
	if err != nil {
		t.Fatal(err)
	}
	omp := ompMessages(t, "../modes/rpc/testdata/omp/branch.stdout.jsonl", "req-8")
	if !reflect.DeepEqual(decodeAny(t, ctx), decodeAny(t, omp)) {
		t.Errorf("handoff context differs from omp's\n got: %s\nwant: %s", ctx, omp)
	}
}
