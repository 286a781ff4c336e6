package browser

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/config"
)

// A browser that is stopped (SIGSTOP: as busy as a browser can be) for
// longer than any ping would wait is waited for, not declared dead: the
// calls made meanwhile finish once it goes on, with no restart note, and
// the tabs are still there.
func TestStoppedBrowserIsWaitedFor(t *testing.T) {
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
	go func() { time.Sleep(4 * time.Second); _ = syscall.Kill(pids[0], syscall.SIGCONT) }()
	res := ok(t, m, map[string]any{"action": "run", "timeout": 20, "code": `return await tab.title()`})
	if text(res) != "Gopi article" {
		t.Errorf("run on the stopped browser: %q", text(res))
	}
	if err := syscall.Kill(pids[0], syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(4 * time.Second); _ = syscall.Kill(pids[0], syscall.SIGCONT) }()
	res = ok(t, m, map[string]any{"action": "open", "name": "second", "url": shared.srv.URL + "/form", "wait_until": "load", "timeout": 20})
	if strings.Contains(text(res), "started again") {
		t.Errorf("the stopped browser was replaced: %q", text(res))
	}
	if names := m.Names(); len(names) != 2 {
		t.Errorf("tabs %v, want main and second", names)
	}
	if got := m.Pids(); len(got) != 1 || got[0] != pids[0] {
		t.Errorf("browser pids %v, want %v", got, pids)
	}
}

// A viewport out of bounds is refused before anything is opened, with
// the limits; a zero or negative size is not taken for "the default".
func TestViewportBounds(t *testing.T) {
	need(t)
	for _, vp := range []map[string]any{
		{"width": 100000, "height": 100000, "scale": 3},
		{"width": -1, "height": 0},
		{"width": 800, "height": 600, "scale": 9},
		{"width": 800.5, "height": 600},
		{"width": 8192, "height": 100, "scale": 4},
		{"width": 6000, "height": 6000, "scale": 3},
	} {
		_, err := call(t, shared.m, map[string]any{"action": "open", "name": "vp", "viewport": vp})
		if err == nil || !strings.Contains(err.Error(), "is not usable") {
			t.Errorf("%v: %v", vp, err)
		}
	}
	if names := shared.m.Names(); slices.Contains(names, "vp") {
		t.Errorf("a tab was opened: %v", names)
	}
}

// A huge return value is cut at 1 MiB with a note, without copying the
// whole string; display() values too.
func TestRunValueCapped(t *testing.T) {
	need(t)
	ok(t, shared.m, map[string]any{"action": "open", "name": "cap"})
	defer ok(t, shared.m, map[string]any{"action": "close", "name": "cap"})
	for _, code := range []string{`return "x".repeat(50 << 20)`, `display("é".repeat(3 << 20))`, `return {a: "y".repeat(2 << 20)}`} {
		res := ok(t, shared.m, map[string]any{"action": "run", "name": "cap", "code": code})
		got := text(res)
		if len(got) > MaxValueText+200 || !strings.Contains(got, "[value cut at 1 MiB of its ") || !utf8.ValidString(got) {
			t.Errorf("%s: %d bytes, ends %q", code, len(got), got[max(0, len(got)-120):])
		}
	}
}

// The browser's own protocol errors never reach the model raw: a bad
// address, a javascript: address, a page that closes itself during a run
// and a renderer that crashes each get a message saying what to do.
func TestBrowserErrorsExplained(t *testing.T) {
	need(t)
	for url, want := range map[string]string{
		"not a url":           `navigate to "not a url": not an address the browser can open; give a full URL`,
		"javascript:alert(1)": "javascript: addresses are not opened; run the code with action run",
	} {
		_, err := call(t, shared.m, map[string]any{"action": "open", "name": "bad", "url": url})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("open %q: %v", url, err)
		}
	}
	ok(t, shared.m, map[string]any{"action": "close", "name": "bad"})
	ok(t, shared.m, map[string]any{"action": "open", "name": "wc"})
	_, err := call(t, shared.m, map[string]any{"action": "run", "name": "wc", "timeout": 10,
		"code": `await tab.evaluate(() => window.close()); await wait(1000); return await tab.title()`})
	if err == nil || err.Error() != `Tab "wc" is not alive (its page was closed). Reopen it.` {
		t.Errorf("run on a page that closed itself: %v", err)
	}

	// Every renderer of a browser of its own is killed.
	m := NewManager(config.Browser{Enabled: true, Headless: true, Exec: shared.exec})
	defer func() { _ = m.Close() }()
	ok(t, m, map[string]any{"action": "open", "url": shared.srv.URL + "/article", "wait_until": "load"})
	group := m.Pids()[0] // the browser leads its process group
	procs, _ := filepath.Glob("/proc/[0-9]*")
	killed := 0
	for _, dir := range procs {
		pid, _ := strconv.Atoi(filepath.Base(dir))
		cmd, _ := os.ReadFile(dir + "/cmdline")
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid == group && strings.Contains(string(cmd), "--type=renderer") {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			killed++
		}
	}
	if killed == 0 {
		t.Fatal("no renderer in the browser's process group")
	}
	time.Sleep(500 * time.Millisecond)
	_, err = call(t, m, map[string]any{"action": "run", "timeout": 10, "code": `return await tab.title()`})
	if err == nil || err.Error() != `Tab "main" is not alive (its page crashed). Reopen it.` {
		t.Errorf("run on a crashed page: %v", err)
	}
	res := ok(t, m, map[string]any{"action": "open", "url": shared.srv.URL + "/form", "wait_until": "load", "timeout": 10})
	if !strings.Contains(text(res), "Title: Form") {
		t.Errorf("reopen after the crash: %q", text(res))
	}
}

// Bad helper arguments and code get messages that say what was wrong.
func TestHelperMessages(t *testing.T) {
	need(t)
	ok(t, shared.m, map[string]any{"action": "open", "name": "msg", "url": shared.srv.URL + "/form", "wait_until": "load"})
	defer ok(t, shared.m, map[string]any{"action": "close", "name": "msg"})
	for code, want := range map[string]string{
		`await tab.scroll('a', 'b')`:                    "tab.scroll: dx must be a finite number, not a",
		`await tab.scroll(0, NaN)`:                      "tab.scroll: dy must be a finite number, not NaN",
		`await tab.click('###')`:                        `selector "###" is not valid CSS`,
		`return await tab.observe({includeAll: 'yes'})`: "option includeAll must be a boolean, not a string",
		`await tab.click('#nope')`:                      `timed out after 2000ms while waiting for selector "#nope": no element matched it`,
		`await tab.screenshot({selector: '#nope'})`:     `timed out after 2000ms while waiting for selector "#nope"`,
		`return 1 +`: "SyntaxError in the code: ",
	} {
		_, err := call(t, shared.m, map[string]any{"action": "run", "name": "msg", "timeout": 2, "code": code})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "SyntaxError: SyntaxError") {
			t.Errorf("%s: %v, want %q", code, err, want)
		}
	}
	_, err := call(t, shared.m, map[string]any{"action": "run", "name": "msg", "code": "const a = 1;\nlet x = ;"})
	if err == nil || !strings.Contains(err.Error(), "(line 2, column") {
		t.Errorf("syntax error's line: %v", err)
	}
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "msg", "code": `await tab.scroll(0, 10); return 1`})
	if text(res) != "1" {
		t.Errorf("scroll: %q", text(res))
	}
}

// A browser path given by PUPPETEER_EXECUTABLE_PATH that is not there is
// an error naming the variable.
func TestExplicitBrowserPathMissing(t *testing.T) {
	m := NewManager(config.Browser{Enabled: true, Headless: true, Exec: "/nonexistent/chrome", ExecEnv: config.EnvBrowserExecutable})
	defer func() { _ = m.Close() }()
	_, err := call(t, m, map[string]any{"action": "open"})
	if err == nil || err.Error() != "PUPPETEER_EXECUTABLE_PATH names the browser to start, but /nonexistent/chrome does not exist: fix the path or unset PUPPETEER_EXECUTABLE_PATH to use the system Chromium" {
		t.Errorf("open: %v", err)
	}
}

// A cdp_url nothing listens on says so, and how to start a browser with
// remote debugging.
func TestAttachRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close() // nothing listens there now
	m := NewManager(config.Browser{Enabled: true})
	defer func() { _ = m.Close() }()
	_, err = call(t, m, map[string]any{"action": "open", "app": map[string]any{"cdp_url": "http://" + addr}})
	if err == nil || !strings.HasPrefix(err.Error(), "nothing answers at CDP endpoint http://"+addr) || !strings.Contains(err.Error(), "--remote-debugging-port=9222") {
		t.Errorf("open: %v", err)
	}
}
