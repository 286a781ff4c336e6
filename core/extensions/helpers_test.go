package extensions

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// The helper block esbuild prints atop a bundle is taken from the engine
// (one compiled set for bundles needing the same helpers), the bundle's
// lines stay where they were, and extensions sharing a set still load and
// run as before.
func TestHelpersShared(t *testing.T) {
	dir := t.TempDir()
	var entries []Entry
	for i := range 3 {
		p := writeExt(t, dir, fmt.Sprintf("node%d.ts", i), fmt.Sprintf(nodeExt, i))
		entries = append(entries, Entry{Path: p, Name: fmt.Sprint("node", i)})
	}
	code, err := bundle(entries[0].Path, "")
	if err != nil {
		t.Fatal(err)
	}
	shared := shareHelpers(code)
	if shared == code || !strings.Contains(shared, "__gopiHelpers(") || strings.Contains(shared, "var __toESM = ") {
		t.Fatalf("the helpers were not taken from the engine:\n%s", shared)
	}
	if strings.Count(shared, "\n") != strings.Count(code, "\n") {
		t.Errorf("lines moved: %d, was %d", strings.Count(shared, "\n"), strings.Count(code, "\n"))
	}
	if i, j := strings.Index(code, "\n\n  // "), strings.Index(shared, "\n\n  // "); i < 0 || j < 0 || code[i:] != shared[j:] {
		t.Errorf("the modules' code changed")
	}
	other, err := bundle(entries[1].Path, "")
	if err != nil {
		t.Fatal(err)
	}
	if a, b := shared[:strings.Index(shared, ";")], shareHelpers(other)[:strings.Index(shareHelpers(other), ";")]; a != b {
		t.Errorf("two bundles with the same helpers got different sets: %q, %q", a, b)
	}
	r := Load(context.Background(), entries, Options{Cwd: dir})
	defer r.Close()
	if errs := r.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(r.Tools()) != 3 || len(r.helperVals) != 1 {
		t.Errorf("%d tools, %d helper sets made", len(r.Tools()), len(r.helperVals))
	}
	res, err := r.Tools()[2].Execute(context.Background(), map[string]any{"file": writeExt(t, dir, "f.txt", "text:")}, nil)
	if err != nil || !strings.HasPrefix(res.FirstText(), "text:") {
		t.Errorf("tool: %v %v", res, err)
	}
}

// A bundle whose first lines are not only helpers is compiled as it is.
func TestHelpersUnrecognisedLeftAlone(t *testing.T) {
	for _, code := range []string{
		"var x = 1;\n",
		bundleHead + "  // a.ts\n  var a = 1;\n  return a;\n})();\n",
		bundleHead + "  var __a = 1;\n  sideEffect();\n\n  // a.ts\n})();\n",
		bundleHead + "  var __a b = 1;\n\n  // a.ts\n})();\n",
		bundleHead + "  var __a = 1;",
		bundleHead + "  var __a = (x) => {\n    return x;\n\n  // a.ts\n})();\n", // cut inside a helper: does not compile
		bundleHead + "  var __a = 1;\n\n  var __b = 2;\n\n  // a.ts\n})();\n",    // not followed by a module
	} {
		if got := shareHelpers(code); got != code {
			t.Errorf("changed:\n%s\n->\n%s", code, got)
		}
	}
}

// FuzzShareHelpers: whatever the text, shareHelpers leaves it alone or
// keeps its head, its line count and everything after the helper block,
// and what it returns for a bundle goja compiles still compiles.
func FuzzShareHelpers(f *testing.F) {
	f.Add(bundleHead + "  var __a = 1;\n  var __b = (x) => (\n    x\n  );\n\n  // a.ts\n  return __b(__a);\n})();\n")
	f.Add(bundleHead + "  var __a = {\n  };\n\n  // a.ts\n})();\n")
	f.Add(bundleHead + "  var __a = (x) => {\n    return x;\n\n  // a.ts\n})();\n")
	f.Add("var __gopiExtension = 1;\n\n")
	f.Fuzz(func(t *testing.T, code string) {
		got := shareHelpers(code)
		if got == code {
			return
		}
		if !strings.HasPrefix(got, bundleHead+"  var { ") || strings.Count(got, "\n") != strings.Count(code, "\n") {
			t.Fatalf("bad rewrite:\n%q\n->\n%q", code, got)
		}
		if _, err := goja.Compile("a", code, false); err == nil {
			if _, err := goja.Compile("b", got, false); err != nil {
				t.Fatalf("the rewrite does not compile (%v):\n%q", err, got)
			}
		}
	})
}
