package lsp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
	"github.com/gopi-agent/gopi/core/lsp/share"
	"github.com/gopi-agent/gopi/core/tool"
)

// The repository benchmarks ask gopls about gopi's own tree: where
// SortDiagnostics, called in core/tool/diagdelta.go, is defined (in
// core/lsp/protocol/diagnostic.go).
const (
	repoFile   = "core/tool/diagdelta.go"
	repoSymbol = "SortDiagnostics"
	repoCall   = "SortDiagnostics(first)"
	repoWant   = "core/lsp/protocol/diagnostic.go:"
)

// repoRoot returns the root of the gopi module this package is in.
func repoRoot(b *testing.B) string {
	b.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !bytes.HasPrefix(mod, []byte("module github.com/gopi-agent/gopi\n")) {
		b.Fatalf("%s is not gopi's module root: %v", root, err)
	}
	return root
}

// repoLine is the 1-based line of repoFile with the call site.
func repoLine(b *testing.B, root string) int {
	b.Helper()
	text, err := os.ReadFile(filepath.Join(root, repoFile))
	if err != nil {
		b.Fatal(err)
	}
	for i, l := range strings.Split(string(text), "\n") {
		if strings.Contains(l, repoCall) {
			return i + 1
		}
	}
	b.Fatalf("%s no longer calls %s", repoFile, repoCall)
	return 0
}

// repoManager returns a manager of gopi's tree (closed by the benchmark's
// cleanup) and the definition arguments of the call site.
func repoManager(b *testing.B) (*lsp.Manager, string, map[string]any) {
	return repoManagerDial(b, nil)
}

// repoManagerDial is repoManager with its servers started by dial (nil:
// as children of the manager).
func repoManagerDial(b *testing.B, dial lsp.DialFunc) (*lsp.Manager, string, map[string]any) {
	lsptest.Need(b, "gopls")
	root := repoRoot(b)
	m := lsp.NewManager(lsp.ManagerOptions{
		Root: root, ExtraDirs: lsptest.BinDirs(), Dial: dial,
		Config: &config.LSPConfig{Enabled: true, Path: os.Getenv("PATH")},
	})
	b.Cleanup(func() { m.Close() })
	args := map[string]any{"action": "definition", "file": repoFile, "line": repoLine(b, root), "symbol": repoSymbol, "timeout": 60}
	return m, root, args
}

// warmDefinition asks tl for args until gopls has loaded the tree and
// answers with the definition (loading gopi's tree can outlast one
// call's 60 s timeout on a loaded machine).
func warmDefinition(b *testing.B, tl *Tool, args map[string]any) {
	b.Helper()
	raw, _ := json.Marshal(args)
	var last string
	for range 5 {
		res, err := tool.Run(b.Context(), tl, raw, nil)
		if err != nil {
			b.Fatal(err)
		}
		if last = res.FirstText(); strings.Contains(last, repoWant) {
			return
		}
	}
	b.Fatalf("gopls did not find the definition: %s", last)
}

// A warm definition on gopi's own tree, through the tool end to end
// (issue 35's target: ≤ 50 ms) and, in the same iterations, straight
// through gopi's client: the tool's overhead over the server's answer
// (target: ≤ 1 ms).
func BenchmarkGoplsRepoDefinition(b *testing.B) {
	m, root, args := repoManager(b)
	tl := New(tool.NewEnv(root), m).(*Tool)
	warmDefinition(b, tl, args)
	settle(b, tl, repoFile)
	benchPaired(b, tl, args)
}

// BenchmarkGoplsDefinition's request on the small module, paired with the
// request straight through gopi's client, as in
// BenchmarkGoplsRepoDefinition.
func BenchmarkGoplsPairedDefinition(b *testing.B) {
	tl, _ := gopls(b)
	settle(b, tl, "main.go")
	benchPaired(b, tl, map[string]any{"action": "definition", "file": "main.go", "line": 16, "symbol": "helper"})
}

// Eight subagents of one session, each with its own tool over the
// session's manager (what registry.Services.ShareLSP gives them), ask
// gopls for the definition at once; reported: how many gopls processes
// this process started (the target is one) and their peak resident set.
func BenchmarkGoplsRepoSharedBy8(b *testing.B) {
	m, root, args := repoManager(b)
	tools := make([]*Tool, 8)
	for i := range tools {
		tools[i] = New(tool.NewEnv(root), m).(*Tool)
	}
	warmDefinition(b, tools[0], args)
	raw, _ := json.Marshal(args)
	b.ResetTimer()
	for b.Loop() {
		var wg sync.WaitGroup
		for _, tl := range tools {
			wg.Go(func() {
				res, err := tool.Run(b.Context(), tl, raw, nil)
				if err != nil || !strings.Contains(res.FirstText(), repoWant) {
					b.Errorf("%v %s", err, res.FirstText())
				}
			})
		}
		wg.Wait()
	}
	b.StopTimer()
	reportGopls(b)
}

// Three gopi processes in one tree, modelled by three managers (each gopi
// process builds its own in registry.NewServices; nothing shares a server
// across processes yet): the baseline for a cross-process broker.
func BenchmarkGoplsRepoThreeManagers(b *testing.B) {
	tools := make([]*Tool, 3)
	var args map[string]any
	for i := range tools {
		m, root, a := repoManager(b)
		tools[i], args = New(tool.NewEnv(root), m).(*Tool), a
	}
	for _, tl := range tools {
		warmDefinition(b, tl, args)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, tl := range tools {
			warmDefinition(b, tl, args)
		}
	}
	b.StopTimer()
	reportGopls(b)
}

// BenchmarkGoplsRepoThreeManagersShared is BenchmarkGoplsRepoThreeManagers
// with the managers sharing through core/lsp/share, as three gopi
// processes do: one gopls, each definition through the multiplexer.
func BenchmarkGoplsRepoThreeManagersShared(b *testing.B) {
	dial := share.Dial(share.Options{Dir: filepath.Join(b.TempDir(), "share")})
	tools := make([]*Tool, 3)
	var args map[string]any
	for i := range tools {
		m, root, a := repoManagerDial(b, dial)
		tools[i], args = New(tool.NewEnv(root), m).(*Tool), a
	}
	for _, tl := range tools {
		warmDefinition(b, tl, args)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, tl := range tools {
			warmDefinition(b, tl, args)
		}
	}
	b.StopTimer()
	reportGopls(b)
}

// reportGopls reports the gopls processes this process started, the
// largest peak resident set among them and the sum of their peaks.
func reportGopls(b *testing.B) {
	b.Helper()
	pids := goplsChildren(b)
	var peak, sum float64
	for _, pid := range pids {
		rss := peakRSSMiB(pid)
		peak, sum = max(peak, rss), sum+rss
	}
	b.ReportMetric(float64(len(pids)), "gopls-procs")
	b.ReportMetric(peak, "gopls-peak-MiB")
	b.ReportMetric(sum, "gopls-sum-peak-MiB")
}

// goplsChildren are the pids of the gopls processes whose parent is this
// process (Linux /proc).
func goplsChildren(b *testing.B) []int {
	b.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		b.Skipf("no /proc to count processes in: %v", err)
	}
	self := os.Getpid()
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces, so cut at the last ')'.
		s := string(stat)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(s[end+1:])
		if s[open+1:end] == "gopls" && len(f) > 1 && f[1] == strconv.Itoa(self) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// peakRSSMiB is a process's peak resident set (VmHWM) in MiB, 0 when
// unreadable.
func peakRSSMiB(pid int) float64 {
	status, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kib, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kib / 1024
		}
	}
	return 0
}
