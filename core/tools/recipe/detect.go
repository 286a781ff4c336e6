package recipe

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
	"github.com/gopi-agent/gopi/internal/projectbin"
)

// ProbeTimeout bounds each runner's listing command (just --dump, cargo
// metadata, task --list-all); a runner whose listing takes longer is
// left out.
const ProbeTimeout = 15 * time.Second

// Probe is where and how runners are looked for.
type Probe struct {
	Root    string   // the project directory (the session's cwd)
	Environ []string // environment of the listing commands; its PATH is where runner programs are looked up
}

// prober finds one runner; nil when the project has none of it (or its
// program is missing, or its listing fails).
type prober func(ctx context.Context, p Probe) *Runner

// probers in the order runners are listed: just, pkg, cargo, make, task.
var probers = []prober{probeJust, probePkg, probeCargo, probeMake, probeTask}

// Detect probes every runner at once and returns those with at least one
// task, in the fixed order. A runner that cannot be read is left out,
// never reported: the tool offers what works.
func Detect(ctx context.Context, p Probe) []*Runner {
	found := make([]*Runner, len(probers))
	var wg sync.WaitGroup
	for i, probe := range probers {
		wg.Go(func() { found[i] = probe(ctx, p) })
	}
	wg.Wait()
	var out []*Runner
	for _, r := range found {
		if r != nil && len(r.Tasks) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// lookPath finds program on the PATH of p's environment; "" when absent.
func (p Probe) lookPath(program string) string {
	path := ""
	for _, kv := range p.Environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	return projectbin.Find(program, filepath.SplitList(path))
}

// output runs a listing command in the project directory and returns its
// standard output; an error for a failed start, a non-zero exit or a
// timeout. The command's process group ends with it.
func (p Probe) output(ctx context.Context, program string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir = p.Root
	cmd.Env = p.Environ
	var out bytes.Buffer
	cmd.Stdout = &out
	childproc.PrepareCancelGroup(cmd)
	if err := cmd.Run(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// listed runs a runner's listing command — program on PATH with args,
// when one of files is in the project — and parses its output; nil when
// any step fails.
func (p Probe) listed(ctx context.Context, program string, files []string, parse func([]byte) ([]Task, bool), args ...string) []Task {
	bin := p.lookPath(program)
	if bin == "" || firstFile(p.Root, files...) == "" {
		return nil
	}
	out, err := p.output(ctx, bin, args...)
	if err != nil {
		return nil
	}
	tasks, _ := parse(out)
	return tasks
}

// firstFile returns the first of names that is a regular file in dir, or
// "".
func firstFile(dir string, names ...string) string {
	for _, n := range names {
		p := filepath.Join(dir, n)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// Detector detects a project's runners once, on first use, for every
// tool built in a session.
type Detector struct {
	probe   Probe
	once    sync.Once
	runners []*Runner
}

// NewDetector returns a detector for p; nothing runs yet.
func NewDetector(p Probe) *Detector { return &Detector{probe: p} }

// Runners returns the runners of the project, probing them on the first
// call (bounded by ProbeTimeout per runner). A nil detector finds none.
func (d *Detector) Runners() []*Runner {
	if d == nil {
		return nil
	}
	d.once.Do(func() { d.runners = Detect(context.Background(), d.probe) })
	return d.runners
}
