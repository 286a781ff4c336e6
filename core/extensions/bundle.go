package extensions

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// An extension is bundled into one script with esbuild's Go API:
// TypeScript is transpiled (type-only imports erased), relative imports
// and the extension's own node_modules are inlined, async/await is kept
// (the engine runs it), and imports of omp's packages are served by a
// small module the runtime provides. The result is cached in memory by the
// content of every file that went into it, so reloading unchanged
// extensions costs a stat and a hash of each input.

// bundleGlobal is the global a bundled extension leaves its exports in.
const bundleGlobal = "__gopiExtension"

// hostPackages are the packages an extension may import that the runtime
// provides (their exports are on the pi object anyway).
// omp's terminal UI package (pi-tui) is replaced by a small shim
// (prelude.js): its real sources need Bun's FFI.
// pi's packages are served too, under their old (@mariozechner) and new
// (@earendil-works) scopes, and TypeBox under its old and new names:
// community extensions written for pi import them.
var hostPackages = []string{"@oh-my-pi/pi-coding-agent", "@oh-my-pi/pi-ai", "@oh-my-pi/pi-agent-core",
	"@mariozechner/pi-coding-agent", "@mariozechner/pi-ai", "@mariozechner/pi-agent-core",
	"@earendil-works/pi-coding-agent", "@earendil-works/pi-ai", "@earendil-works/pi-agent-core",
	"@sinclair/typebox", "typebox", "zod",
	"@oh-my-pi/pi-tui", "@mariozechner/pi-tui", "@earendil-works/pi-tui"}

type cached struct {
	inputs map[string][32]byte // file → content hash when bundled
	code   string
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*cached{}
)

// buildOptions are esbuild's options for bundling entries.
func buildOptions(entries ...string) api.BuildOptions {
	return api.BuildOptions{
		EntryPoints: entries,
		Bundle:      true,
		Write:       false,
		Format:      api.FormatIIFE,
		GlobalName:  bundleGlobal,
		Platform:    api.PlatformNeutral,
		Target:      api.ES2017,
		MainFields:  []string{"module", "main"},
		Conditions:  []string{"import", "default"},
		Metafile:    true,
		LogLevel:    api.LogLevelSilent,
		Plugins:     []api.Plugin{hostPlugin()},
		Loader:      map[string]api.Loader{".json": api.LoaderJSON},
	}
}

// prebundle bundles the entries not in the cache with one esbuild build:
// the builds share esbuild's reads of directories and files and its
// parallel parsing, which ten separate builds repeat. When the build
// fails (one entry's import does not resolve, say) nothing is cached and
// each entry is bundled alone by bundle, which names the culprit.
//
// It returns the scripts it found current or built, by entry: bundle
// need not check those inputs again.
func prebundle(entries []string, diskDir string) map[string]string {
	have := make([]*cached, len(entries))
	cacheMu.Lock()
	for i, e := range entries {
		have[i] = cache[e]
	}
	cacheMu.Unlock()
	ready := map[string]string{}
	var todo []string
	for i, e := range entries {
		switch {
		case have[i] != nil && unchanged(have[i].inputs):
			ready[e] = have[i].code
		default:
			if c := loadDisk(diskDir, e); c != nil {
				ready[e] = c.code
			} else {
				todo = append(todo, e)
			}
		}
	}
	if len(todo) < 2 {
		return ready
	}
	opts := buildOptions(todo...)
	// Outputs are not written; the directory only gives them paths.
	opts.Outdir = filepath.Join(os.TempDir(), "gopi-extensions-bundle")
	res := api.Build(opts)
	if len(res.Errors) > 0 || len(res.OutputFiles) == 0 {
		return ready
	}
	var meta struct {
		Outputs map[string]struct {
			EntryPoint string         `json:"entryPoint"`
			Inputs     map[string]any `json:"inputs"`
		} `json:"outputs"`
	}
	if json.Unmarshal([]byte(res.Metafile), &meta) != nil {
		return ready
	}
	byPath := map[string]string{}
	for _, f := range res.OutputFiles {
		byPath[f.Path] = string(f.Contents)
	}
	for out, o := range meta.Outputs {
		if o.EntryPoint == "" {
			continue
		}
		outAbs, _ := filepath.Abs(out)
		entryAbs, _ := filepath.Abs(o.EntryPoint)
		code, ok := byPath[outAbs]
		if !ok {
			continue
		}
		inputs := hashFiles(keys(o.Inputs))
		if inputs == nil {
			continue
		}
		for _, e := range todo {
			if abs, _ := filepath.Abs(e); abs == entryAbs {
				c := &cached{inputs: inputs, code: code}
				cacheMu.Lock()
				cache[e] = c
				cacheMu.Unlock()
				saveDisk(diskDir, e, c)
				ready[e] = code
			}
		}
	}
	return ready
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// bundle returns the script of the extension at entry, from the cache in
// memory, else the one on disk in diskDir ("" for none), else built.
func bundle(entry, diskDir string) (string, error) {
	cacheMu.Lock()
	c := cache[entry]
	cacheMu.Unlock()
	if c != nil && unchanged(c.inputs) {
		return c.code, nil
	}
	if c := loadDisk(diskDir, entry); c != nil {
		return c.code, nil
	}
	res := api.Build(buildOptions(entry))
	if len(res.Errors) > 0 {
		return "", fmt.Errorf("cannot bundle %s: %s", entry, formatMessages(res.Errors))
	}
	if len(res.OutputFiles) == 0 {
		return "", fmt.Errorf("cannot bundle %s: esbuild produced nothing", entry)
	}
	code := string(res.OutputFiles[0].Contents)
	c = &cached{inputs: hashInputs(res.Metafile), code: code}
	cacheMu.Lock()
	cache[entry] = c
	cacheMu.Unlock()
	saveDisk(diskDir, entry, c)
	return code, nil
}

// hostPlugin serves the host packages from the runtime: an import of one
// becomes a require() that the runtime answers.
func hostPlugin() api.Plugin {
	return api.Plugin{Name: "gopi-host", Setup: func(b api.PluginBuild) {
		filter := "^(" + strings.ReplaceAll(strings.Join(quoteRegexps(hostPackages), "|"), "/", "\\/") + ")(/.*)?$"
		b.OnResolve(api.OnResolveOptions{Filter: filter}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: a.Path, Namespace: "gopi-host"}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: "gopi-host"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := fmt.Sprintf("module.exports = globalThis.__gopiHostModule(%q);", a.Path)
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
		})
		// Node's built-in modules are the runtime's (node.go), which
		// refuses the ones it does not provide with a message at load.
		// An import or require of one is left to the runtime's global
		// require (esbuild's __require calls it), so esbuild neither
		// parses nor prints a module for it in every bundle; only a
		// dynamic import() gets a small module in the bundle, as the
		// engine has no import() of its own.
		b.OnResolve(api.OnResolveOptions{Filter: "^(node:)?(" + strings.Join(nodeBuiltins, "|") + ")(/.*)?$"},
			func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				if a.Kind != api.ResolveJSDynamicImport {
					return api.OnResolveResult{Path: a.Path, External: true}, nil
				}
				return api.OnResolveResult{Path: a.Path, Namespace: "gopi-node"}, nil
			})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: "gopi-node"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := fmt.Sprintf("module.exports = globalThis.__gopiNodeModule(%q);", a.Path)
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
		})
	}}
}

func quoteRegexps(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.NewReplacer(".", "\\.", "-", "\\-").Replace(n)
	}
	return out
}

// unresolved matches esbuild's message for an import it cannot find.
var unresolved = regexp.MustCompile(`^Could not resolve "([^"]+)"`)

// formatMessages joins esbuild's messages with their locations; an
// import of a package that is not there says why and what to do.
func formatMessages(msgs []api.Message) string {
	var parts []string
	for _, m := range msgs {
		s := m.Text
		if sub := unresolved.FindStringSubmatch(s); sub != nil && !strings.HasPrefix(sub[1], ".") && !strings.HasPrefix(sub[1], "/") {
			s += " (the package is not installed next to the extension: run npm install in the extension's directory; gopi itself provides only Node's built-in modules and omp's and pi's own packages)"
		}
		if l := m.Location; l != nil {
			s = fmt.Sprintf("%s:%d:%d: %s", l.File, l.Line, l.Column, s)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// hashInputs records the content hash of every file esbuild read.
func hashInputs(metafile string) map[string][32]byte {
	// The metafile lists inputs as "inputs": {"path": {...}, ...}; the
	// paths are relative to the working directory.
	var meta struct {
		Inputs map[string]any `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(metafile), &meta); err != nil {
		return nil
	}
	return hashFiles(keys(meta.Inputs))
}

// hashFiles records the content hash of each of esbuild's input paths
// (relative to the working directory; a plugin's namespaced paths are
// skipped); nil when one cannot be read.
func hashFiles(paths []string) map[string][32]byte {
	out := map[string][32]byte{}
	for _, p := range paths {
		if strings.Contains(p, ":") { // a plugin's namespace
			continue
		}
		abs, _ := filepath.Abs(p)
		b, err := os.ReadFile(abs)
		if err != nil {
			return nil
		}
		out[abs] = sha256.Sum256(b)
	}
	return out
}

// unchanged reports whether every input still has the recorded content.
func unchanged(inputs map[string][32]byte) bool {
	if inputs == nil {
		return false
	}
	for p, h := range inputs {
		b, err := os.ReadFile(p)
		if err != nil || sha256.Sum256(b) != h {
			return false
		}
	}
	return true
}
