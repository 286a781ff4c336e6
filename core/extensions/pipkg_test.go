package extensions

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// pi.pi carries omp's StringEnum and logger besides z, as omp's api-demo
// example uses them: the extension loads and its schema has the enum.
func TestPiPackageHelpers(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "demo.ts")
	src := `export default function (pi: any) {
	const { Type } = pi.typebox;
	const { StringEnum, logger } = pi.pi;
	logger.debug("loaded");
	pi.registerTool({
		name: "demo", label: "Demo", description: "demo",
		parameters: Type.Object({ level: Type.Optional(StringEnum(["error", "warn"], { default: "warn" })) }),
		async execute() { return { content: [{ type: "text", text: "ok" }] }; },
	});
}
`
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, errs := Resolve(Sources{Cwd: dir, Paths: []string{p}, NoDiscovery: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	rt := Load(context.Background(), entries, Options{Cwd: dir})
	defer rt.Close()
	if len(rt.Errors()) > 0 || len(rt.Tools()) != 1 {
		t.Fatalf("errors %v, %d tools", rt.Errors(), len(rt.Tools()))
	}
	level := rt.Tools()[0].Definition().Parameters.Properties["level"]
	if level == nil || len(level.Enum) != 2 || level.Type != "string" {
		t.Errorf("level schema %+v", level)
	}
}

// An extension importing omp's pi-tui (as omp's plan-mode and tools
// examples do) loads: Key builds gopi's shortcut names and the
// components exist.
func TestPiTUIShim(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "plan.ts")
	src := `import { Key, Container, SettingsList } from "@oh-my-pi/pi-tui";
export default function (pi: any) {
	const c = new Container();
	c.addChild(new SettingsList([], 5));
	pi.registerShortcut(Key.shift("p"), { description: "toggle", handler: async () => {} });
}
`
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, _ := Resolve(Sources{Cwd: dir, Paths: []string{p}, NoDiscovery: true})
	rt := Load(context.Background(), entries, Options{Cwd: dir})
	defer rt.Close()
	if len(rt.Errors()) > 0 {
		t.Fatal(rt.Errors())
	}
	if sc := rt.Shortcuts(); len(sc) != 1 || sc[0].Key != "shift+p" {
		t.Errorf("shortcuts %+v", sc)
	}
}
