package extensions

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Extensions loaded together are bundled by one esbuild build, each into
// its own script (a shared relative import inlined in both); when one of
// them cannot be bundled the others still load and the failure names the
// one at fault.
func TestPrebundleTogether(t *testing.T) {
	dir := t.TempDir()
	writeExt(t, dir, "lib/shared.ts", `export const tag = (s: string): string => "<" + s + ">";`)
	a := writeExt(t, dir, "a.ts", `import { tag } from "./lib/shared"; export default function (pi) { pi.registerCommand("a", { handler: async () => tag("a") }); }`)
	b := writeExt(t, dir, "b/index.ts", `import { tag } from "../lib/shared"; export default function (pi) { pi.registerCommand("b", { handler: async () => tag("b") }); }`)
	prebundle([]string{a, b}, "")
	cacheMu.Lock()
	ca, cb := cache[a], cache[b]
	cacheMu.Unlock()
	if ca == nil || cb == nil {
		t.Fatalf("not bundled together: %v %v", ca != nil, cb != nil)
	}
	if !strings.Contains(ca.code, `"a"`) || strings.Contains(ca.code, `"b"`) || !strings.Contains(cb.code, `"<"`) {
		t.Errorf("scripts mixed up:\n%s\n---\n%s", ca.code, cb.code)
	}
	if len(ca.inputs) != 2 {
		t.Errorf("a's inputs %v, want a.ts and lib/shared.ts", ca.inputs)
	}

	bad := writeExt(t, dir, "bad.ts", `import { nope } from "./missing"; export default function (pi) { nope(pi); }`)
	c := writeExt(t, dir, "c.ts", `export default function (pi) { pi.registerCommand("c", { handler: async () => {} }); }`)
	r := Load(context.Background(), []Entry{{Path: bad, Name: "bad"}, {Path: c, Name: "c"}, {Path: a, Name: "a"}}, Options{Cwd: dir})
	defer r.Close()
	errs := r.Errors()
	if len(errs) != 1 || errs[0].Path != bad || !strings.Contains(errs[0].Err, "missing") {
		t.Fatalf("errors %v, want one for %s", errs, filepath.Base(bad))
	}
	if names := commandNames(r); strings.Join(names, ",") != "a,c" {
		t.Errorf("commands %v", names)
	}
}

// A bundle kept on disk serves the next process (the cache in memory
// cleared) while its inputs are unchanged, and is rebuilt once one
// changes.
func TestBundleCacheOnDisk(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	p := writeExt(t, dir, "ext.ts", `export default function (pi) { pi.registerCommand("real", { handler: async () => {} }); }`)
	load := func() []string {
		cacheMu.Lock()
		clear(cache)
		cacheMu.Unlock()
		r := Load(context.Background(), []Entry{{Path: p, Name: "ext"}}, Options{Cwd: dir, BundleCacheDir: cacheDir})
		defer r.Close()
		if errs := r.Errors(); len(errs) > 0 {
			t.Fatal(errs)
		}
		return commandNames(r)
	}
	if names := load(); strings.Join(names, ",") != "real" {
		t.Fatalf("first load: %v", names)
	}
	file := diskPath(cacheDir, p)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal("no cache file:", err)
	}
	// The next load takes the script from the file: a marked copy shows it.
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), `\"real\"`, `\"from-disk\"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if names := load(); strings.Join(names, ",") != "from-disk" {
		t.Fatalf("second load did not use the cache file: %v", names)
	}
	writeExt(t, dir, "ext.ts", `export default function (pi) { pi.registerCommand("edited", { handler: async () => {} }); }`)
	if names := load(); strings.Join(names, ",") != "edited" {
		t.Fatalf("an edited extension was served from the cache: %v", names)
	}
}

// An import of a package that is not installed fails the load with a
// message naming the package, why it is missing and what to do.
func TestMissingPackageSaysWhy(t *testing.T) {
	dir := t.TempDir()
	p := writeExt(t, dir, "web.ts", `import { fetch } from "undici"; export default function (pi) { pi.on("input", () => fetch("x")); }`)
	r := Load(context.Background(), []Entry{{Path: p, Name: "web"}}, Options{Cwd: dir})
	defer r.Close()
	errs := r.Errors()
	if len(errs) != 1 || !strings.Contains(errs[0].Err, `Could not resolve "undici"`) || !strings.Contains(errs[0].Err, "npm install") {
		t.Fatalf("errors %v", errs)
	}
}
