package recipe

import (
	"context"
	"encoding/json"
	"slices"
)

// probeCargo lists the bin, example and test targets of the project's
// packages with `cargo metadata --no-deps --format-version=1` (needs
// cargo on PATH and a Cargo.toml).
func probeCargo(ctx context.Context, p Probe) *Runner {
	tasks := p.listed(ctx, "cargo", []string{"Cargo.toml"}, ParseCargoMetadata, "metadata", "--no-deps", "--format-version=1")
	return &Runner{ID: RunnerCargo, Label: "Cargo", Prefix: "cargo", Tasks: tasks}
}

// cargoMetadata is what the runner reads of cargo's metadata.
type cargoMetadata struct {
	Packages []struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		Targets []struct {
			Kind []string `json:"kind"`
			Name string   `json:"name"`
		} `json:"targets"`
	} `json:"packages"`
	WorkspaceMembers []string `json:"workspace_members"`
}

// ParseCargoMetadata turns cargo's metadata into tasks: each bin,
// example and test target of the workspace members (all packages when
// none is a member) is "bin/<name>", "example/<name>" or "test/<name>",
// with "<package>/" in front when there is more than one package. The
// task runs `cargo run --package <p> --bin|--example <name>` or `cargo
// test --package <p> --test <name>`. False when out is not metadata.
func ParseCargoMetadata(out []byte) ([]Task, bool) {
	var md cargoMetadata
	if json.Unmarshal(out, &md) != nil {
		return nil, false
	}
	pkgs := md.Packages[:0:0]
	for _, p := range md.Packages {
		if p.ID != "" && slices.Contains(md.WorkspaceMembers, p.ID) {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) == 0 {
		pkgs = md.Packages
	}
	workspace := len(pkgs) > 1
	seen := map[string]bool{}
	var tasks []Task
	for _, p := range pkgs {
		if p.Name == "" {
			continue
		}
		for _, t := range p.Targets {
			kind := cargoKind(t.Kind)
			if t.Name == "" || kind == "" {
				continue
			}
			name := kind + "/" + t.Name
			if workspace {
				name = p.Name + "/" + name
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			verb, flag := "run", "--"+kind
			if kind == "test" {
				verb = "test"
			}
			tasks = append(tasks, Task{
				Name:    name,
				Doc:     p.Name + " " + kind + " target " + t.Name,
				Prefix:  "cargo " + verb + " --package " + shellQuote(p.Name) + " " + flag,
				Command: shellQuote(t.Name),
			})
		}
	}
	return tasks, true
}

// cargoKind is the task kind of a target: bin, example or test; "" for
// the others (lib, bench, build scripts).
func cargoKind(kinds []string) string {
	for _, k := range []string{"bin", "example", "test"} {
		if slices.Contains(kinds, k) {
			return k
		}
	}
	return ""
}
