package agentsession

import (
	"encoding/json"
	"reflect"
	"testing"
)

// State's spliced encoding is the plain one.
func TestStateJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	st := s.State()
	fast, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	type plain State
	slow, err := json.Marshal(plain(st))
	if err != nil {
		t.Fatal(err)
	}
	var a, b map[string]any
	json.Unmarshal(fast, &a)
	json.Unmarshal(slow, &b)
	if !reflect.DeepEqual(a, b) || len(a["dumpTools"].([]any)) == 0 {
		t.Fatalf("spliced encoding differs:\n%s\n%s", fast, slow)
	}
}
