package extensions

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// Tool parameters that cannot be a schema (a string, null, a number, a
// boolean, an array) still give a tool without parameters, as before,
// but no longer silently: each is a warning naming the extension and the
// tool. An object without a type, or no parameters at all, is fine.
func TestToolParametersThatAreNotSchemasWarn(t *testing.T) {
	p := writeExt(t, t.TempDir(), "odd.js", `export default function (pi) {
	const run = () => "ok";
	pi.registerTool({ name: "text", description: "d", parameters: "not a schema", execute: run });
	pi.registerTool({ name: "nothing", description: "d", parameters: null, execute: run });
	pi.registerTool({ name: "number", description: "d", parameters: 42, execute: run });
	pi.registerTool({ name: "flag", description: "d", parameters: true, execute: run });
	pi.registerTool({ name: "list", description: "d", parameters: [{ type: "string" }], execute: run });
	pi.registerTool({ name: "untyped", description: "d", parameters: { properties: { a: { type: "string" } } }, execute: run });
	pi.registerTool({ name: "bare", description: "d", execute: run });
}`)
	r := Load(context.Background(), []Entry{{Path: p}}, Options{})
	defer r.Close()
	if errs := r.Errors(); len(errs) != 0 {
		t.Fatal(errs)
	}
	if n := len(r.Tools()); n != 7 {
		t.Fatalf("%d tools", n)
	}
	for _, x := range r.Tools() {
		raw, _ := json.Marshal(x.Definition().Parameters)
		if !strings.HasPrefix(string(raw), `{"type":"object"`) {
			t.Errorf("%s: %s", x.Definition().Name, raw)
		}
	}
	want := []string{
		`the parameters of the tool text are a string ("not a schema"), not a JSON Schema object`,
		`the parameters of the tool nothing are null, not a JSON Schema object`,
		`the parameters of the tool number are a number (42), not a JSON Schema object`,
		`the parameters of the tool flag are a boolean (true), not a JSON Schema object`,
		`the parameters of the tool list are an array, not a JSON Schema object`,
	}
	warns := r.Warnings()
	if len(warns) != len(want) {
		t.Fatalf("warnings %v", warns)
	}
	for i, w := range warns {
		if w.Path != p || w.Event != "registerTool" || !strings.HasPrefix(w.Err, want[i]) || !strings.Contains(w.Err, "the tool is offered without parameters") {
			t.Errorf("warning %d: %+v", i, w)
		}
	}
}
