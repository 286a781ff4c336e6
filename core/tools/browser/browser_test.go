package browser

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/headless"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// The package's tests share one Chromium (shared.m) and one page server.
var shared struct {
	done       chan struct{} // closed when the tests end: held requests return
	downloaded chan struct{} // a /download.bin was served
	marked     chan struct{} // a /mark was requested
	exec       string
	m          *Manager
	srv        *httptest.Server
}

func TestMain(m *testing.M) {
	shared.exec = headless.Find(os.Getenv(config.EnvBrowserExecutable), exec.LookPath)
	shared.done, shared.downloaded, shared.marked = make(chan struct{}), make(chan struct{}, 1), make(chan struct{}, 1)
	shared.srv = httptest.NewServer(http.HandlerFunc(servePage))
	if shared.exec != "" {
		shared.m = NewManager(config.Browser{Enabled: true, Headless: true, Exec: shared.exec})
	}
	code := m.Run()
	_ = shared.m.Close()
	close(shared.done)
	shared.srv.Close()
	os.Exit(code)
}

// pages are the test pages by path.
var pages = map[string]string{
	"/article": `<html><head><title>Gopi article</title></head><body><nav>menu</nav><main><article>
		<h1>Bees</h1><p>Honey bees live in colonies of many thousands of workers and one queen.</p>
		<p>They communicate the direction of flowers with a waggle dance on the comb.</p>
		<p>A colony can produce far more honey than it needs to survive the winter months.</p></article></main></body></html>`,
	"/form": `<html><head><title>Form</title></head><body>
		<input id="q"><button id="go" onclick="document.getElementById('out').textContent = 'hello ' + document.getElementById('q').value">Go</button>
		<p id="out"></p></body></html>`,
	"/loop": `<html><head><title>Loop</title></head><body><script>while (true) {}</script></body></html>`,
	"/huge": `<html><head><title>Huge</title></head><body><script>
		const p = document.body.appendChild(document.createElement("p")); p.hidden = true; p.textContent = "word ".repeat(21 << 20)</script></body></html>`,
	"/alert":  `<html><head><title>Alert</title></head><body><script>alert("hi")</script></body></html>`,
	"/spin":   `<html><head><title>Spin</title></head><body><button id="b" onclick="while (true) {}">spin</button></body></html>`,
	"/dialog": `<html><head><title>Dialog</title></head><body><p id="r"></p></body></html>`,
	"/closes": `<html><head><title>Closes</title></head><body><button onclick="window.close()">x</button></body></html>`,
	"/controls": `<html><head><title>Controls</title></head><body>
		<a href="#top">Top</a> <button id="b1" onclick="this.textContent = 'pressed'">Press me</button>
		<label>Agree <input type="checkbox" id="cb" checked></label> <input id="name" aria-label="Your name">
		<select id="one"><option value="a">A</option><option value="b">B</option></select>
		<select id="many" multiple><option value="x">X</option><option value="y">Y</option><option value="z">Z</option></select>
		<input type="file" id="file" multiple><p id="log"></p>
		<div id="pad" style="height: 3000px"></div><button id="far">Far away</button><div style="height: 2000px"></div>
		<script>
		for (const id of ["one", "many"]) document.getElementById(id).addEventListener("change", e =>
			document.getElementById("log").textContent += id + ":" + [...e.target.selectedOptions].map(o => o.value).join(",") + " ");
		document.getElementById("file").addEventListener("change", e =>
			document.getElementById("log").textContent += "files:" + [...e.target.files].map(f => f.name + "/" + f.size).join(",") + " ");
		</script></body></html>`,
	"/drag": `<html><head><title>Drag</title></head><body style="margin:0">
		<div id="src" style="position:absolute; left:10px; top:10px; width:40px; height:40px; background:red"></div>
		<div id="dst" style="position:absolute; left:200px; top:100px; width:40px; height:40px; background:blue"></div>
		<script>window.trail = []; let down = false;
		addEventListener("mousedown", e => { down = true; trail.push(["down", e.clientX, e.clientY]) });
		addEventListener("mousemove", e => { if (down) trail.push(["move", e.clientX, e.clientY]) });
		addEventListener("mouseup", e => { down = false; trail.push(["up", e.clientX, e.clientY]) });</script></body></html>`,
	"/fetcher":  `<html><head><title>Fetcher</title></head><body><button id="go" onclick="fetch('/api?n=' + (++window.n || (window.n = 1)))">Go</button></body></html>`,
	"/download": `<html><head><title>Download</title></head><body><a id="dl" href="/download.bin">get it</a></body></html>`,
	"/hold":     `<html><head><title>Hold</title></head><body><p>one request stays open</p><script>fetch("/hang")</script></body></html>`,
}

func servePage(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/api":
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"n": %q, "ok": true}`, r.URL.Query().Get("n"))
		return
	case "/download.bin":
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="gopi-download.bin"`)
		_, _ = w.Write(bytes.Repeat([]byte("x"), 64<<10))
		select {
		case shared.downloaded <- struct{}{}:
		default:
		}
		return
	case "/mark": // a run got this far
		select {
		case shared.marked <- struct{}{}:
		default:
		}
		return
	case "/many": // about 2 MB: more buttons than TestObserveHugePage's limit, long labels, a 1 MB one
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		label := strings.Repeat("label ", 200)
		_, _ = fmt.Fprintf(w, `<html><head><title>Huge</title></head><body><button id="first" onclick="window.hit = 1">go</button><button>%s</button>`, strings.Repeat("long ", 1<<18))
		for i := 0; i < 100; i++ {
			_, _ = fmt.Fprintf(w, "<p>%s</p><button>%s %d</button>\n", strings.Repeat(label, 5), label, i)
		}
		_, _ = w.Write([]byte(`</body></html>`))
		return
	case "/hang": // answers headers, then holds the body open until the client leaves
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-shared.done:
		}
		return
	}
	p, ok := pages[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(p))
}

// need skips a test without a Chromium.
func need(t *testing.T) {
	t.Helper()
	if shared.exec == "" {
		if os.Getenv("CI") != "" {
			t.Fatal(headless.MissingHint)
		}
		t.Skip(headless.MissingHint)
	}
}

// call runs the tool of m with args and returns its result.
func call(t testing.TB, m *Manager, args map[string]any) (*tool.Result, error) {
	t.Helper()
	raw, _ := json.Marshal(args)
	env := tool.NewEnv(t.TempDir())
	res, err := tool.Run(context.Background(), New(env, m), raw, nil)
	if err == nil && res.IsError {
		err = errors.New(text(res))
	}
	return res, err
}

// ok runs a call that must succeed.
func ok(t testing.TB, m *Manager, args map[string]any) *tool.Result {
	t.Helper()
	res, err := call(t, m, args)
	if err != nil || res.IsError {
		t.Fatalf("%v: %v %s", args, err, text(res))
	}
	return res
}

// text is every text block of res.
func text(res *tool.Result) string {
	if res == nil {
		return ""
	}
	var b []string
	for _, c := range res.Content {
		if t, ok := c.(*tool.TextContent); ok {
			b = append(b, t.Text)
		}
	}
	return strings.Join(b, "\n")
}

// The model opens a page, extracts its article and takes a screenshot:
// the text is the article's, the image a PNG fitted into 1024×1024.
func TestOpenExtractScreenshot(t *testing.T) {
	need(t)
	res := ok(t, shared.m, map[string]any{"action": "open", "name": "art", "url": shared.srv.URL + "/article"})
	if got := text(res); !strings.HasPrefix(got, `Opened tab "art" on headless browser (hidden)`) || !strings.Contains(got, "Title: Gopi article") {
		t.Errorf("open: %q", got)
	}
	res = ok(t, shared.m, map[string]any{"action": "run", "name": "art",
		"code": `const r = await tab.extract(); await tab.screenshot(); return r.markdown;`})
	got := text(res)
	if !strings.Contains(got, "waggle dance") || strings.Contains(got, "menu") {
		t.Errorf("extract: %q", got)
	}
	if !strings.Contains(got, "Screenshot captured") || !strings.Contains(got, "Dimensions: 1024x576") {
		t.Errorf("screenshot text: %q", got)
	}
	var img *tool.ImageContent
	for _, c := range res.Content {
		if i, ok := c.(*tool.ImageContent); ok {
			img = i
		}
	}
	if img == nil || img.MIMEType != "image/png" {
		t.Fatalf("no PNG image block: %+v", res.Content)
	}
	data, _ := base64.StdEncoding.DecodeString(img.Data)
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width != 1024 || cfg.Height != 576 {
		t.Errorf("image %dx%d %v, want 1024x576 (1365x768 at 1.25, fitted)", cfg.Width, cfg.Height, err)
	}
	d := res.Details.(*Details)
	if len(d.Screenshots) != 1 || d.Screenshots[0].Width != 1024 {
		t.Errorf("details: %+v", d.Screenshots)
	}
	ok(t, shared.m, map[string]any{"action": "close", "name": "art"})
}

// Typing into an input and clicking a button run the page's handlers.
func TestTypeAndClick(t *testing.T) {
	need(t)
	ok(t, shared.m, map[string]any{"action": "open", "name": "form", "url": shared.srv.URL + "/form"})
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "form",
		"code": `await tab.type('#q', 'bees'); await tab.click('text/Go');
			return await tab.evaluate(() => document.getElementById('out').textContent);`})
	if got := text(res); got != "hello bees" {
		t.Errorf("got %q", got)
	}
	res = ok(t, shared.m, map[string]any{"action": "run", "name": "form", "code": `await tab.fill('#q', 'x'); display({n: 1});`})
	if got := text(res); got != "{\n  \"n\": 1\n}" {
		t.Errorf("display: %q", got)
	}
	res = ok(t, shared.m, map[string]any{"action": "run", "name": "form", "code": `1 + 1;`})
	if got := text(res); got != `Ran code on tab "form"` {
		t.Errorf("no output: %q", got)
	}
	ok(t, shared.m, map[string]any{"action": "close", "name": "form"})
}

// Two tabs run at once; a tab already running answers "is busy".
func TestTwoTabsAndBusy(t *testing.T) {
	need(t)
	for _, n := range []string{"a", "b"} {
		ok(t, shared.m, map[string]any{"action": "open", "name": n, "url": shared.srv.URL + "/article"})
	}
	defer ok(t, shared.m, map[string]any{"action": "close", "all": true})
	started := make(chan struct{})
	release := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // holds tab a until released
		defer wg.Done()
		tab := shared.m.lookup("a")
		tab.busy.Lock()
		close(started)
		<-release
		tab.busy.Unlock()
	}()
	<-started
	if _, err := call(t, shared.m, map[string]any{"action": "run", "name": "a", "code": "return 1"}); err == nil || err.Error() != `Tab "a" is busy` {
		t.Errorf("busy: %v", err)
	}
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "b", "code": "return await tab.title()"})
	if text(res) != "Gopi article" {
		t.Errorf("tab b: %q", text(res))
	}
	close(release)
	wg.Wait()
	var errs [2]error
	var got [2]string
	wg.Add(2)
	for i, n := range []string{"a", "b"} {
		go func() {
			defer wg.Done()
			res, err := call(t, shared.m, map[string]any{"action": "run", "name": n, "code": "return tab.name + ' ' + await tab.title()"})
			errs[i], got[i] = err, text(res)
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil || got[0] != "a Gopi article" || got[1] != "b Gopi article" {
		t.Errorf("concurrent runs: %v %q", errs, got)
	}
}

// A page stuck in a loop times the call out; the tab works after.
func TestNeverFinishingPage(t *testing.T) {
	need(t)
	ok(t, shared.m, map[string]any{"action": "open", "name": "loop"})
	defer ok(t, shared.m, map[string]any{"action": "close", "name": "loop"})
	_, err := call(t, shared.m, map[string]any{"action": "run", "name": "loop", "timeout": 1,
		"code": fmt.Sprintf(`await tab.goto(%q)`, shared.srv.URL+"/loop")})
	if err == nil || err.Error() != "Browser code execution timed out after 1000ms" {
		t.Fatalf("err %v", err)
	}
	_, err = call(t, shared.m, map[string]any{"action": "run", "name": "loop", "timeout": 1, "code": `while (true) {}`})
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("JS loop: %v", err)
	}
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "loop", "code": `return await tab.evaluate(() => 6 * 7)`})
	if text(res) != "42" {
		t.Errorf("after timeout: %q", text(res))
	}
}

// dialogs: "dismiss" answers confirm() with false, "accept" with true.
func TestDialogs(t *testing.T) {
	need(t)
	for policy, want := range map[string]string{"dismiss": "false", "accept": "true"} {
		ok(t, shared.m, map[string]any{"action": "open", "name": "dlg", "url": shared.srv.URL + "/dialog", "dialogs": policy})
		res := ok(t, shared.m, map[string]any{"action": "run", "name": "dlg", "timeout": 10,
			"code": `return await tab.evaluate(() => { alert('hi'); return confirm('sure?') })`})
		if text(res) != want {
			t.Errorf("%s: %q", policy, text(res))
		}
	}
	// Reopened without dialogs, the tab keeps its policy (as omp).
	if res := ok(t, shared.m, map[string]any{"action": "open", "name": "dlg"}); !strings.HasPrefix(text(res), `Reused tab "dlg"`) {
		t.Errorf("reopen without dialogs: %q", text(res))
	}
	// Without a policy a dialog blocks the page until the call times out;
	// the timeout dismisses it, and the tab answers the next call.
	ok(t, shared.m, map[string]any{"action": "close", "name": "dlg"})
	ok(t, shared.m, map[string]any{"action": "open", "name": "dlg", "url": shared.srv.URL + "/dialog"})
	_, err := call(t, shared.m, map[string]any{"action": "run", "name": "dlg", "timeout": 1,
		"code": `return await tab.evaluate(() => confirm('sure?'))`})
	if err == nil || !strings.Contains(err.Error(), `timed out after 1000ms; the page waits on an alert/confirm/prompt dialog: open the tab with dialogs "accept"`) {
		t.Errorf("unhandled dialog: %v", err)
	}
	// A button whose handler opens one during a run: the same advice.
	_, err = call(t, shared.m, map[string]any{"action": "run", "name": "dlg", "timeout": 2,
		"code": `await tab.evaluate(() => { const b = document.body.appendChild(document.createElement("button")); b.id = "al"; b.onclick = () => alert("x") }); await tab.click("#al"); await wait(5000)`})
	if err == nil || !strings.Contains(err.Error(), `the page waits on an alert/confirm/prompt dialog`) {
		t.Errorf("dialog from a click: %v", err)
	}
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "dlg", "code": `return await tab.title()`})
	if text(res) != "Dialog" {
		t.Errorf("after the dialog: %q", text(res))
	}
	ok(t, shared.m, map[string]any{"action": "close", "name": "dlg"})
}

// A tab whose page went away (closed by itself or by another client)
// says to reopen it.
func TestTabClosedUnderneath(t *testing.T) {
	need(t)
	ok(t, shared.m, map[string]any{"action": "open", "name": "gone", "url": shared.srv.URL + "/closes"})
	page := shared.m.lookup("gone").page
	page.Close()
	testwait.Until(t, "the page to be gone", func() bool { return !page.Alive(context.Background()) })
	_, err := call(t, shared.m, map[string]any{"action": "run", "name": "gone", "code": `return 1`})
	if err == nil || !strings.Contains(err.Error(), `Tab "gone" is not alive`) {
		t.Errorf("err %v", err)
	}
}

// Bad calls say what to do.
func TestErrors(t *testing.T) {
	need(t)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"action": "run", "name": "nope", "code": "1"}, `Tab "nope" is not alive. Reopen it.`},
		{map[string]any{"action": "run", "code": " "}, "Missing required parameter 'code' for action 'run'."},
		{map[string]any{"action": "close", "name": "nope"}, ""},
	} {
		res, err := call(t, shared.m, c.args)
		if c.want == "" {
			if err != nil || text(res) != `No tab named "nope"` {
				t.Errorf("%v: %v %q", c.args, err, text(res))
			}
			continue
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// A Chromium killed mid-session is started again on the next open, with
// a note; Close ends the new one and leaves no process behind.
//
// Before the kill, a download the page starts is refused: nothing is
// written in the Chromium's home (its download directory lives there).
func TestChromiumKilledAndClosed(t *testing.T) {
	need(t)
	home := t.TempDir()
	t.Setenv("HOME", home) // the Chromium started below inherits it
	t.Setenv("XDG_DOWNLOAD_DIR", filepath.Join(home, "Downloads"))
	m := NewManager(config.Browser{Enabled: true, Headless: true, Exec: shared.exec})
	ok(t, m, map[string]any{"action": "open", "url": shared.srv.URL + "/download", "wait_until": "load"})
	ok(t, m, map[string]any{"action": "run", "code": `await tab.click("#dl")`})
	select {
	case <-shared.downloaded: // the browser has had the whole file
	case <-time.After(20 * time.Second):
		t.Fatal("the page's download was never requested")
	}
	ok(t, m, map[string]any{"action": "open", "url": shared.srv.URL + "/article"}) // a round trip after it
	_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), "gopi-download") {
			t.Errorf("the download was written: %s", p)
		}
		return nil
	})
	pids := m.Pids()
	if len(pids) != 1 {
		t.Fatalf("pids %v", pids)
	}
	_ = syscall.Kill(-pids[0], syscall.SIGKILL)
	_, err := call(t, m, map[string]any{"action": "run", "code": "return 1"})
	if err == nil || err.Error() != `Tab "main" is not alive (the browser exited or crashed; open starts it again). Reopen it.` {
		t.Errorf("run after kill: %v", err)
	}
	res := ok(t, m, map[string]any{"action": "open", "url": shared.srv.URL + "/article"})
	if !strings.Contains(text(res), "had exited or crashed; it was started again") {
		t.Errorf("no note: %q", text(res))
	}
	m.mu.Lock()
	b := m.browsers["headless"]
	m.mu.Unlock()
	if len(b.Live()) < 2 {
		t.Fatalf("chromium processes %v: expected the browser and its helpers", b.Live())
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if live := b.Live(); len(live) != 0 {
		t.Errorf("processes %v still there after Close", live)
	}
	if _, err := call(t, m, map[string]any{"action": "open"}); err == nil {
		t.Error("open after Close worked")
	}
}

// A page of 100 MB (built by its script) is read through bounded
// buffers: extraction sees at most headless.MaxHTML bytes, an evaluate
// result over 1 MiB is refused.
func TestHugePage(t *testing.T) {
	need(t)
	ok(t, shared.m, map[string]any{"action": "open", "name": "big", "url": shared.srv.URL + "/huge"})
	defer ok(t, shared.m, map[string]any{"action": "close", "name": "big"})
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "big",
		"code": `const r = await tab.extract("text"); return [r.contentLength, await tab.evaluate(() => document.body.textContent.length)]`})
	var got []int
	if err := json.Unmarshal([]byte(text(res)), &got); err != nil || len(got) != 2 {
		t.Fatalf("%q %v", text(res), err)
	}
	if got[0] == 0 || got[0] > headless.MaxHTML || got[1] < 100<<20 {
		t.Errorf("extracted %d bytes of a %d byte page (cap %d)", got[0], got[1], headless.MaxHTML)
	}
	_, err := call(t, shared.m, map[string]any{"action": "run", "name": "big", "code": `return await tab.evaluate(() => "x".repeat(2 << 20))`})
	if err == nil || err.Error() != headless.ErrResultTooLarge.Error() {
		t.Errorf("huge evaluate: %v", err)
	}
}

// app.cdp_url attaches to a running browser (here the shared Chromium)
// and takes one of its pages, the one app.target names (by title or
// URL); closing the session only disconnects: the page stays.
func TestAttachCDP(t *testing.T) {
	need(t)
	ok(t, shared.m, map[string]any{"action": "open", "name": "host", "url": shared.srv.URL + "/form", "wait_until": "load"})
	shared.m.mu.Lock()
	endpoint := shared.m.browsers["headless"].Endpoint()
	shared.m.mu.Unlock()
	m := NewManager(config.Browser{Enabled: true})
	app := map[string]any{"cdp_url": endpoint + "/", "target": "form"}
	res := ok(t, m, map[string]any{"action": "open", "name": "att", "app": app})
	if want := `Opened tab "att" on connected ` + endpoint + "\nURL: " + shared.srv.URL + "/form\nTitle: Form"; text(res) != want {
		t.Errorf("open: %q, want %q", text(res), want)
	}
	if _, err := call(t, m, map[string]any{"action": "open", "name": "att"}); err == nil ||
		err.Error() != `Tab "att" is bound to a different browser (connected:`+endpoint+`). Close it first.` {
		t.Errorf("kind change: %v", err)
	}
	res = ok(t, m, map[string]any{"action": "run", "name": "att", "code": `await tab.type("#q", "owls"); await tab.click("#go"); return tab.title()`})
	if text(res) != "Form" {
		t.Errorf("run: %q", text(res))
	}
	_, err := call(t, m, map[string]any{"action": "open", "name": "other", "app": map[string]any{"cdp_url": endpoint, "target": "no such page"}})
	if err == nil || !strings.HasPrefix(err.Error(), `No page target matched "no such page". Available pages:`) || !strings.Contains(err.Error(), "- Form  "+shared.srv.URL+"/form") {
		t.Errorf("no match: %v", err)
	}
	ok(t, m, map[string]any{"action": "close", "name": "att"})
	_ = m.Close()
	res = ok(t, shared.m, map[string]any{"action": "run", "name": "host", "code": `return await tab.evaluate(() => document.getElementById("out").textContent)`})
	if text(res) != "hello owls" {
		t.Errorf("the host's page after the attached session closed: %q", text(res))
	}
	ok(t, shared.m, map[string]any{"action": "close", "name": "host"})
}

// app.path spawns an app with --remote-debugging-port (here a script
// that starts the Chromium on a page), attaches to its page and names it
// by path and pid; close without kill leaves it running, close with kill
// ends it, and the session's end ends one left running.
func TestSpawnedApp(t *testing.T) {
	need(t)
	dir := t.TempDir()
	app := filepath.Join(dir, "app.sh")
	script := fmt.Sprintf("#!/bin/sh\nexec %s --headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir=%s \"$@\" about:blank\n",
		shared.exec, filepath.Join(dir, "profile"))
	if err := os.WriteFile(app, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	m := NewManager(config.Browser{Enabled: true, Headless: true, Exec: shared.exec})
	defer m.Close()
	open := map[string]any{"action": "open", "name": "app", "app": map[string]any{"path": app, "args": []string{"--mute-audio"}},
		"url": shared.srv.URL + "/article", "wait_until": "load"}
	res := ok(t, m, open)
	if got := text(res); !strings.HasPrefix(got, `Opened tab "app" on spawned `+app+" (pid ") || !strings.HasSuffix(got, "Title: Gopi article") {
		t.Errorf("open: %q", got)
	}
	if d := res.Details.(*Details); d.Browser != "spawned" {
		t.Errorf("details.browser %q", d.Browser)
	}
	m.mu.Lock()
	b := m.browsers["spawned:"+app]
	m.mu.Unlock()
	if b == nil || len(b.Live()) == 0 {
		t.Fatal("no spawned process")
	}
	ok(t, m, map[string]any{"action": "close", "name": "app"})
	if len(b.Live()) == 0 {
		t.Error("close without kill ended the app")
	}
	ok(t, m, open)
	ok(t, m, map[string]any{"action": "close", "name": "app", "kill": true})
	if live := b.Live(); len(live) != 0 {
		t.Errorf("close with kill left %v", live)
	}
	ok(t, m, open) // a new instance
	m.mu.Lock()
	b = m.browsers["spawned:"+app]
	m.mu.Unlock()
	_ = m.Close()
	if live := b.Live(); len(live) != 0 {
		t.Errorf("the session's end left %v", live)
	}
}

// A Chromium killed while a run waits ends the run at once with the
// error the next call would give, not when the wait is over.
func TestChromiumKilledMidRun(t *testing.T) {
	need(t)
	m := NewManager(config.Browser{Enabled: true, Headless: true, Exec: shared.exec})
	defer func() { _ = m.Close() }()
	ok(t, m, map[string]any{"action": "open", "url": shared.srv.URL + "/article", "wait_until": "load"})
	pids := m.Pids()
	if len(pids) != 1 {
		t.Fatalf("pids %v", pids)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := call(t, m, map[string]any{"action": "run", "timeout": 120,
			"code": `await tab.evaluate(() => fetch("/mark")); await wait(100000); return "waited"`})
		errc <- err
	}()
	<-shared.marked
	_ = syscall.Kill(-pids[0], syscall.SIGKILL)
	err := <-errc
	if err == nil || err.Error() != `Tab "main" is not alive (the browser exited or crashed; open starts it again). Reopen it.` {
		t.Errorf("run during the kill: %v", err)
	}
}
