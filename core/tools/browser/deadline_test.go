package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
)

func init() {
	// A page that keeps Chromium busy: observing, extracting or capturing
	// its 100,000 labelled buttons takes Chromium many seconds.
	pages["/bigdom"] = `<html><head><title>BigDom</title></head><body><script>let s = "";
		for (let i = 0; i < 100000; i++) s += "<button aria-label='" + "x".repeat(500) + i + "'>b" + i + "</button>";
		document.body.innerHTML = s</script></body></html>`
}

// Calls on a page that keeps Chromium busy return by their timeout (plus
// the spec's 750 ms grace): freeing the page afterwards runs in the
// background, and the next call waits for it within its own time. The
// bound is on a hang, not on speed: the three calls together get a
// margin of 5 s for a loaded machine (waiting for the freeing inside each
// call, as before, took 5 s more per call); the tab then still answers.
func TestTimeoutOnBusyPage(t *testing.T) {
	need(t)
	ok(t, shared.m, map[string]any{"action": "open", "name": "busy", "url": shared.srv.URL + "/bigdom", "wait_until": "load", "timeout": 30})
	t.Cleanup(func() { ok(t, shared.m, map[string]any{"action": "close", "name": "busy"}) })
	const timeout, grace, margin = time.Second, 750 * time.Millisecond, 5 * time.Second
	codes := []string{`await tab.observe()`, `await tab.extract("text")`, `await tab.screenshot({fullPage: true})`}
	start := time.Now()
	for _, code := range codes {
		began := time.Now()
		_, err := call(t, shared.m, map[string]any{"action": "run", "name": "busy", "timeout": timeout.Seconds(), "code": code})
		t.Logf("%s: %v after %s", code, err, time.Since(began).Round(time.Millisecond))
		if err == nil || !strings.HasPrefix(err.Error(), "Browser code execution timed out after 1000ms") {
			t.Errorf("%s: %v, want a timeout", code, err)
		}
	}
	if took, bound := time.Since(start), time.Duration(len(codes))*(timeout+grace)+margin; took > bound {
		t.Errorf("%d calls with a timeout of %s took %s (bound %s)", len(codes), timeout, took.Round(time.Millisecond), bound)
	}
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "busy", "timeout": 30, "code": `return await tab.title()`})
	if text(res) != "BigDom" {
		t.Errorf("the tab afterwards: %q", text(res))
	}
}

// tab.screenshot({save}) writes where omp's does (any path, directories
// made), but in plan mode it is refused like any other change to a file,
// before a directory is made; with plan mode off the file is written.
func TestScreenshotSaveGatedByPlanMode(t *testing.T) {
	need(t)
	openPage(t, "shotsave", "/article")
	dir := t.TempDir()
	env := tool.NewEnv(dir)
	env.SetPlanMode(&tool.PlanMode{File: "local://PLAN.md", Abs: filepath.Join(dir, "PLAN.md")})
	raw, _ := json.Marshal(map[string]any{"action": "run", "name": "shotsave", "timeout": 10,
		"code": `await tab.screenshot({save: "sub/dir/shot.png", silent: true}); return "saved"`})
	res, err := tool.Run(context.Background(), New(env, shared.m), raw, nil)
	if err == nil && !res.IsError {
		t.Fatalf("plan mode: the screenshot was saved: %q", text(res))
	}
	if msg := fmt.Sprint(err) + text(res); !strings.Contains(msg, "Plan mode") {
		t.Errorf("plan mode: %s", msg)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub")); !os.IsNotExist(err) {
		t.Errorf("plan mode made the directory: %v", err)
	}
	env.SetPlanMode(nil)
	res, err = tool.Run(context.Background(), New(env, shared.m), raw, nil)
	if err != nil || res.IsError {
		t.Fatalf("without plan mode: %v %q", err, text(res))
	}
	if data, err := os.ReadFile(filepath.Join(dir, "sub/dir/shot.png")); err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Errorf("saved file: %v", err)
	}
}

// A browser that does not answer at all (stopped) holds no call past its
// timeout: the page's address and title are asked within the call's time
// (rod's Page.Info asked through the browser's own context, so the call
// waited until the browser went on). Bound as in TestTimeoutOnBusyPage.
func TestTimeoutOnStoppedBrowser(t *testing.T) {
	need(t)
	m := NewManager(config.Browser{Enabled: true, Headless: true, Exec: shared.exec})
	defer func() { _ = m.Close() }()
	ok(t, m, map[string]any{"action": "open", "url": shared.srv.URL + "/article", "wait_until": "load"})
	pids := m.Pids()
	if len(pids) != 1 {
		t.Fatalf("pids %v", pids)
	}
	if err := syscall.Kill(pids[0], syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	resumed := time.AfterFunc(20*time.Second, func() { _ = syscall.Kill(pids[0], syscall.SIGCONT) })
	defer func() { resumed.Stop(); _ = syscall.Kill(pids[0], syscall.SIGCONT) }()
	const timeout, grace, margin = time.Second, 750 * time.Millisecond, 5 * time.Second
	start := time.Now()
	_, err := call(t, m, map[string]any{"action": "run", "timeout": timeout.Seconds(), "code": `return await tab.title()`})
	if took := time.Since(start); took > timeout+grace+margin {
		t.Errorf("a run on a stopped browser took %s (bound %s): %v", took.Round(time.Millisecond), timeout+grace+margin, err)
	}
	if err == nil || !strings.HasPrefix(err.Error(), "Browser code execution timed out after 1000ms") {
		t.Errorf("err %v, want a timeout", err)
	}
}
