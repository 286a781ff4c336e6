package extensions

import (
	"context"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// A default or namespace import of a built-in gets one frozen view per
// module, shared by the extensions of the engine, with esbuild's members
// (default and a getter for each member of the module); a member added to
// the module later shows in the next import's view; other imports (a host
// package here) go through esbuild's helper as before.
func TestBuiltinESMViewShared(t *testing.T) {
	dir := t.TempDir()
	src := `import * as path from "node:path";
import os from "node:os";
import * as zod from "zod";
import EventEmitter from "node:events";
import * as events from "events";
export default function (pi) {
  globalThis.__events = typeof new EventEmitter().on + " " + (events.EventEmitter === EventEmitter) + " " + (events.default === EventEmitter);
  globalThis.__seen = (globalThis.__seen || []).concat([path]);
  globalThis.__zods = (globalThis.__zods || []).concat([zod]);
  globalThis.__joined = path.join("a", "b") + " " + (os === require("os")) + " " + NAME;
}`
	var entries []Entry
	for _, name := range []string{"one", "two"} {
		entries = append(entries, Entry{Path: writeExt(t, dir, name+".ts", strings.Replace(src, "NAME", `"`+name+`"`, 1)), Name: name})
	}
	later := writeExt(t, dir, "later.ts", `import * as os from "os";
export default function (pi) { require("os").extra = 7; }`)
	last := writeExt(t, dir, "last.ts", `import * as os from "os";
export default function (pi) { globalThis.__extra = os.extra; globalThis.__osFrozen = Object.isFrozen(os); }`)
	entries = append(entries, Entry{Path: later, Name: "later"}, Entry{Path: last, Name: "last"})
	code, err := bundle(entries[0].Path, "")
	if err != nil {
		t.Fatal(err)
	}
	if withBuiltinESM(code) == code {
		t.Fatalf("esbuild's __toESM helper is not where withBuiltinESM looks for it:\n%s", code)
	}
	r := Load(context.Background(), entries, Options{Cwd: dir})
	defer r.Close()
	if errs := r.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	var got string
	_ = r.vm.do(loadBudget, func(rt *goja.Runtime) error {
		v, err := rt.RunString(`const [a, b] = __seen;
[__joined, __events, a === b, Object.isFrozen(a), a.default === require("path"), Object.keys(a).includes("join"), Object.keys(a).includes("default"),
 __zods[0] !== __zods[1], Object.isFrozen(__zods[0]), __extra, __osFrozen].join(",")`)
		if err != nil {
			return err
		}
		got = v.String()
		return nil
	})
	if got != "a/b true two,function true true,true,true,true,true,true,true,false,7,true" {
		t.Errorf("views: %s", got)
	}
}
