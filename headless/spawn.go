//go:build unix

package headless

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// Time limits of spawning an app (omp's): the wait for its DevTools
// endpoint, the probe of a running instance's endpoint, and how long a
// stale instance has to end after SIGTERM before SIGKILL.
const (
	SpawnTimeout = 30 * time.Second
	probeTimeout = 1500 * time.Millisecond
	killGrace    = 3 * time.Second
)

// SpawnOptions say which app to start for the browser tool's app.path.
type SpawnOptions struct {
	Exec string   // absolute path of the app's executable
	Args []string // its arguments, before --remote-debugging-port
}

// Spawn connects to the Chromium-based app (Electron, Chrome, …) at
// o.Exec: a running instance of it that serves DevTools is reused;
// otherwise its other instances are ended and it is started with
// --remote-debugging-port on a free loopback port, in a process group of
// its own with gopi's mark (so it ends with gopi), and its endpoint is
// awaited (SpawnTimeout, within ctx).
func Spawn(ctx context.Context, o SpawnOptions) (*Browser, error) {
	if !filepath.IsAbs(o.Exec) {
		return nil, fmt.Errorf("app.path must be an absolute path of an executable (got %q); for a macOS app give the binary inside Foo.app/Contents/MacOS/", o.Exec)
	}
	if pid, endpoint := findReusable(ctx, o.Exec); endpoint != "" {
		b, err := Attach(ctx, endpoint)
		if err != nil {
			return nil, err
		}
		b.desc, b.pid = fmt.Sprintf("spawned %s (pid %d)", o.Exec, pid), pid
		return b, nil
	}
	endInstances(ctx, o.Exec)
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("find a free port for %s: %w", filepath.Base(o.Exec), err)
	}
	tree := childproc.NewTree()
	cmd := exec.Command(o.Exec, append(append([]string(nil), o.Args...), "--remote-debugging-port="+strconv.Itoa(port))...)
	tree.Prepare(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", o.Exec, err)
	}
	tree.Started(cmd)
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	fail := func(err error) (*Browser, error) {
		tree.End()
		<-exited
		return nil, err
	}
	endpoint := "http://127.0.0.1:" + strconv.Itoa(port)
	if err := waitForEndpoint(ctx, endpoint, exited); err != nil {
		return fail(fmt.Errorf("failed to attach to %s on %s: %w", filepath.Base(o.Exec), endpoint, err))
	}
	b, err := Attach(ctx, endpoint)
	if err != nil {
		return fail(err)
	}
	b.cmd, b.tree, b.exited = cmd, tree, exited
	b.desc = fmt.Sprintf("spawned %s (pid %d)", o.Exec, cmd.Process.Pid)
	return b, nil
}

// freePort returns a loopback TCP port nobody listens on now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// probe reports whether endpoint's /json/version answers 200 within
// probeTimeout (and ctx).
func probe(ctx context.Context, endpoint string) bool {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"/json/version", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// waitForEndpoint polls endpoint every 150 ms until it answers, the
// process exits, SpawnTimeout passes or ctx ends.
func waitForEndpoint(ctx context.Context, endpoint string, exited <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(ctx, SpawnTimeout)
	defer cancel()
	tick := time.NewTicker(150 * time.Millisecond)
	defer tick.Stop()
	for {
		if probe(ctx, endpoint) {
			return nil
		}
		select {
		case <-exited:
			return errors.New("the app exited before its DevTools endpoint answered")
		case <-ctx.Done():
			return fmt.Errorf("timed out waiting for its DevTools endpoint: %w", ctx.Err())
		case <-tick.C:
		}
	}
}

// instances returns the pids of the processes running the executable
// exe (by /proc/<pid>/exe) and their arguments.
func instances(exe string) map[int][]string {
	want := map[string]bool{exe: true}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		want[real] = true
	}
	out := map[int][]string{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		target, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil || !want[strings.TrimSuffix(target, " (deleted)")] {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		out[pid] = strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
	}
	return out
}

// DebugPort is the --remote-debugging-port of a command line (either
// --remote-debugging-port=N or the port as the next argument); 0 when
// there is none.
func DebugPort(args []string) int {
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--remote-debugging-port=")
		if !ok && a == "--remote-debugging-port" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(v); err == nil && n > 0 && n < 65536 {
			return n
		}
	}
	return 0
}

// findReusable returns a running instance of exe whose DevTools
// endpoint answers: its pid and endpoint, or "".
func findReusable(ctx context.Context, exe string) (int, string) {
	for pid, args := range instances(exe) {
		if port := DebugPort(args); port != 0 {
			if endpoint := "http://127.0.0.1:" + strconv.Itoa(port); probe(ctx, endpoint) {
				return pid, endpoint
			}
		}
	}
	return 0, ""
}

// endInstances ends the running instances of exe (single-instance apps
// would hand the new start to them): SIGTERM, then SIGKILL to those
// still there after killGrace.
func endInstances(ctx context.Context, exe string) { endPids(ctx, instances(exe)) }

// endPids sends the processes pids SIGTERM, then SIGKILL to those still
// there after killGrace.
func endPids(ctx context.Context, pids map[int][]string) {
	if len(pids) == 0 {
		return
	}
	for pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
	deadline := time.NewTimer(killGrace)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for len(pids) > 0 {
		select {
		case <-deadline.C:
			for pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			return
		case <-ctx.Done():
			return
		case <-tick.C:
			for pid := range pids {
				if syscall.Kill(pid, 0) != nil {
					delete(pids, pid)
				}
			}
		}
	}
}
