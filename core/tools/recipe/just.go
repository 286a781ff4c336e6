package recipe

import (
	"bytes"
	"context"
	"encoding/json"
)

// justfileNames are the files just reads.
var justfileNames = []string{"justfile", "Justfile", ".justfile"}

// probeJust lists the public recipes of the project's justfile with
// `just --dump --dump-format=json` (needs just on PATH).
func probeJust(ctx context.Context, p Probe) *Runner {
	tasks := p.listed(ctx, "just", justfileNames, ParseJustDump, "--dump", "--dump-format=json")
	return &Runner{ID: RunnerJust, Label: "Just", Prefix: "just", Tasks: tasks}
}

// justRecipe is what the runner reads of one recipe of just's dump.
type justRecipe struct {
	Name       string `json:"name"`
	Doc        any    `json:"doc"`
	Private    bool   `json:"private"`
	Parameters []struct {
		Name any `json:"name"`
	} `json:"parameters"`
}

// ParseJustDump reads the recipes of `just --dump --dump-format=json`,
// in the dump's order, leaving out private ones; false when out is not
// such a dump.
func ParseJustDump(out []byte) ([]Task, bool) {
	var dump struct {
		Recipes json.RawMessage `json:"recipes"`
	}
	if json.Unmarshal(out, &dump) != nil {
		return nil, false
	}
	var tasks []Task
	ok := eachMember(dump.Recipes, func(_ string, raw json.RawMessage) {
		var r justRecipe
		if json.Unmarshal(raw, &r) != nil || r.Name == "" || r.Private {
			return
		}
		t := Task{Name: r.Name}
		t.Doc, _ = r.Doc.(string)
		for _, p := range r.Parameters {
			if n, _ := p.Name.(string); n != "" {
				t.Params = append(t.Params, n)
			}
		}
		tasks = append(tasks, t)
	})
	return tasks, ok || len(dump.Recipes) == 0
}

// eachMember calls fn for each member of a JSON object in document
// order; false when raw is not an object.
func eachMember(raw json.RawMessage, fn func(key string, value json.RawMessage)) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return false
		}
		fn(key, v)
	}
	return true
}
