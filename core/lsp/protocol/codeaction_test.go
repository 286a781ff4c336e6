package protocol

import (
	"encoding/json"
	"testing"
)

// A codeAction answer mixes code actions and bare commands; each decodes
// as what it is, keeping the raw entry.
func TestCodeActionDecode(t *testing.T) {
	var got []CodeAction
	data := `[{"title":"Organize","kind":"source.organizeImports","edit":{"changes":{}},"data":{"x":1}},
		{"title":"Run","command":"gopls.run","arguments":[1]},
		{"title":"Fix","isPreferred":true,"command":{"title":"Fix","command":"fix.it"},"disabled":{"reason":"no"}}]`
	if err := json.Unmarshal([]byte(data), &got); err != nil {
		t.Fatal(err)
	}
	if a := got[0]; a.Bare || a.Command != nil || a.Edit == nil || a.Kind != "source.organizeImports" || len(a.Raw) == 0 {
		t.Errorf("action: %+v", a)
	}
	if a := got[1]; !a.Bare || a.Command.Command != "gopls.run" || len(a.Command.Arguments) != 1 {
		t.Errorf("bare command: %+v", a)
	}
	if a := got[2]; a.Bare || a.Command.Command != "fix.it" || !a.IsPreferred || a.Disabled.Reason != "no" {
		t.Errorf("action with command: %+v", a)
	}
}

func FuzzCodeAction(f *testing.F) {
	f.Add([]byte(`{"title":"a","command":"x","arguments":[null]}`))
	f.Add([]byte(`{"title":"b","kind":"quickfix","edit":{"documentChanges":[{"kind":"delete","uri":"file:///c"}]},"command":{"command":"y"}}`))
	f.Add([]byte(`{"command":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a CodeAction
		if json.Unmarshal(data, &a) != nil {
			return
		}
		if a.Bare && a.Command == nil {
			t.Fatalf("bare entry without a command: %q", data)
		}
		if !json.Valid(a.Raw) {
			t.Fatalf("raw entry is not JSON: %q", a.Raw)
		}
	})
}
