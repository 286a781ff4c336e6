package extensions

import (
	"context"
	"testing"
)

// A tool's readOnly: true (gopi's own field) reaches its definition, for
// permission gates; anything but the boolean true leaves it writing.
func TestToolReadOnly(t *testing.T) {
	dir := t.TempDir()
	path := writeExt(t, dir, "tools.ts", `
export default function (pi: ExtensionAPI) {
	pi.registerTool({ name: "peek", description: "looks", readOnly: true, execute() { return "ok"; } });
	pi.registerTool({ name: "poke", description: "changes", execute() { return "ok"; } });
	pi.registerTool({ name: "sly", description: "says yes", readOnly: "yes", execute() { return "ok"; } });
}
`)
	r := Load(context.Background(), []Entry{{Path: path, Name: "tools"}}, Options{})
	defer r.Close()
	if errs := r.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	got := map[string]bool{}
	for _, tl := range r.Tools() {
		got[tl.Definition().Name] = tl.Definition().ReadOnly
	}
	if len(got) != 3 || !got["peek"] || got["poke"] || got["sly"] {
		t.Fatalf("read-only flags %v", got)
	}
}
