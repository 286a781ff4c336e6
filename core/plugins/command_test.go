package plugins

import (
	"context"
	"os"
	"strings"
	"testing"
)

// A catalog is written by strangers: terminal escape sequences in its
// text (clearing the screen, writing the clipboard with OSC 52) must not
// reach the terminal through discover, list or an error.
func TestRunOutputIsTerminalSafe(t *testing.T) {
	m := newManager(t)
	ctx := context.Background()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		CatalogPath: `{"name":"esc","owner":{"name":"x"},"plugins":[
			{"name":"p","source":"./p","version":"1\u001b[31m","description":"nice \u001b]52;c;aGk=\u0007 \u001b[2J\u009b31m cleared"},
			{"name":"q","source":"./q\u001b[2J"}]}`,
		"p/.claude-plugin/plugin.json": `{"name":"p"}`,
	})
	if _, err := m.AddMarketplace(ctx, dir); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		t.Helper()
		inv, err := ParseInvocation(args)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		err = Run(ctx, m, m.sources(), inv, &out)
		return out.String(), err
	}
	for _, args := range [][]string{{"discover"}, {"install", "p@esc"}, {"list"}} {
		out, err := run(args...)
		if err != nil || strings.ContainsAny(out, "\x1b\x07\u009b") || !strings.Contains(out, "p@esc") {
			t.Errorf("%v: %q %v", args, out, err)
		}
	}
	if _, err := run("install", "q@esc"); err == nil || strings.ContainsAny(err.Error(), "\x1b\x07\u009b") {
		t.Errorf("error %q", err)
	}
	if out, _ := run("discover", "--json"); !strings.Contains(out, `\u001b`) {
		t.Errorf("JSON output lost the catalog's text as written: %q", out)
	}
}

// list says when an installed plugin's directory is gone (the session
// leaves it out with a warning) instead of calling it enabled.
func TestListSaysMissing(t *testing.T) {
	m := newManager(t)
	ctx := context.Background()
	if _, err := m.AddMarketplace(ctx, market(t, "mk", map[string]string{"alpha": "./plugins/alpha"})); err != nil {
		t.Fatal(err)
	}
	inst, err := m.Install(ctx, ID{Name: "alpha", Marketplace: "mk"}, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(inst.InstallPath); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Run(ctx, m, m.sources(), Invocation{Verb: "list"}, &out); err != nil || !strings.Contains(out.String(), "alpha@mk v1.0.0  user scope, missing (its directory is gone: install --force alpha@mk)") {
		t.Fatalf("%q %v", out.String(), err)
	}
}
