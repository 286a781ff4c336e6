package edit

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// TestReplaceSchemaMatchesOmp compares replace mode's parameter schema,
// descriptions left out, with the one omp 14.9.9 sends the model under
// PI_EDIT_VARIANT=replace (recorded from its request to the mock LLM,
// without the "_i" field its proxy adds, in testdata/replace-schema.omp.json).
func TestReplaceSchemaMatchesOmp(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/replace-schema.omp.json")
	if err != nil {
		t.Fatal(err)
	}
	var want any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(NewMode(&tool.Env{}, tool.EditReplace).Definition().Parameters)
	if err != nil {
		t.Fatal(err)
	}
	var got any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	dropDescriptions(got)
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		t.Errorf("replace-mode schema differs from omp's:\n%s\nwant\n%s", g, raw)
	}
}

// dropDescriptions removes every "description" key from a decoded schema.
func dropDescriptions(v any) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "description")
		for _, e := range x {
			dropDescriptions(e)
		}
	case []any:
		for _, e := range x {
			dropDescriptions(e)
		}
	}
}
