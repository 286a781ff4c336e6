package browser

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/headless"
)

// Name is the tool's name.
const Name = "browser"

// Timeouts of one call, in seconds: default and upper bound (omp's).
const (
	DefaultTimeout = 30
	MaxTimeout     = 30
)

const description = `Drives tabs of a real Chromium: open a named tab, run JavaScript against it, close it.

<instruction>
- For a static page (docs, articles, issues, JSON) the read tool with a URL is cheaper; use this tool when the page needs JavaScript, a login or interaction.
- action "open": get the tab called name (default "main"), creating it or reusing it; url navigates it (wait_until: load, domcontentloaded, networkidle0 or networkidle2), viewport sizes it, dialogs: "accept" or "dismiss" answers alert/confirm/prompt dialogs by itself (without it a dialog blocks the page). Instead of the headless Chromium: app.cdp_url attaches to a running browser's DevTools endpoint (http://127.0.0.1:9222); app.path starts a Chromium-based app (an Electron app, Chrome) from its executable with app.args and remote debugging, reusing a running instance that already serves DevTools (other instances are ended first). With either, the tab is one of the pages the browser already has: app.target picks it by a piece of its title or URL.
- action "close": close the tab called name, or every tab with all: true; kill: true also ends an app started by app.path once none of its tabs is left (without it the app runs until the session ends).
- action "run": code is the body of an async function, run against an open tab with tab, page, display, assert, wait, setTimeout/clearTimeout and console in scope. Its return value (JSON unless a string) and each display(value) come back to you; display({type: "image", data, mimeType}) sends an image.
- tab helpers (those taking a selector wait for it): tab.goto(url, {waitUntil}) (default networkidle2), tab.click(sel), tab.type(sel, text), tab.fill(sel, value), tab.press(key, {selector}), tab.scroll(dx, dy), tab.waitFor(sel) (returns the element), tab.waitForUrl(substring or RegExp, {timeout}), tab.url(), tab.title(), tab.evaluate(fn, ...args) (runs fn in the page; arguments and result are JSON), tab.extract("markdown" | "text") (the page's main content), tab.screenshot({selector, fullPage, save, silent}) (attaches the image for you unless silent; save writes it full size).
- tab.observe({includeAll, viewportOnly}) lists the page's interactive elements from its accessibility tree as {url, title, viewport, scroll, elements: [{id, role, name, value, states}]}; prefer it to a screenshot for knowing what is on the page. tab.id(n) turns an id of the latest observe into an element with click(), type(text), press(key), hover(), focus(), select(...values), uploadFile(...paths), evaluate(fn, ...args) (fn gets the element first), boundingBox(), scrollIntoView(). Ids are valid until the next observe or navigation.
- tab.drag(from, to): each end a selector or an {x, y} viewport point. tab.scrollIntoView(sel) centres an element. tab.select(sel, ...values) sets a <select> (fill does not) and returns the selected values. tab.uploadFile(sel, ...paths) gives files (paths relative to the working directory) to an <input type="file">.
- tab.waitForResponse(pattern, {timeout}) resolves with the first later response whose URL contains the string, matches the RegExp, or passes the function; it has url(), status(), ok(), headers(), text(), json(). Start it before the action that triggers the request: const [r] = await Promise.all([tab.waitForResponse("/api"), tab.click("#go")]).
- Selectors: CSS, text/… (an element whose text contains …), aria/… (an element with that accessible name) or xpath/…; p-text/, p-aria/[name="…"] and p-xpath/ are accepted too.
</instruction>

<critical>
- Call open before run: run never creates a tab.
- A tab runs one call at a time; a second call on it fails with "is busy".
- Each call stops after its timeout (default and most 30 s): a page stuck in a loop is stopped and the tab stays usable.
</critical>

<output>
open and close: one status text. run: the display() outputs in order, then the return value, or a line saying the code ran.
</output>`

// Details is the structured part of a result.
type Details struct {
	Action      string             `json:"action"`
	Name        string             `json:"name"`
	Browser     string             `json:"browser,omitempty"`
	URL         string             `json:"url,omitempty"`
	Viewport    *headless.Viewport `json:"viewport,omitempty"`
	Screenshots []Screenshot       `json:"screenshots,omitempty"`
	Result      string             `json:"result"`
}

// Tool is the browser tool of one session.
type Tool struct {
	env  *tool.Env
	m    *Manager
	gate SaveGate
}

// New returns the browser tool over the session's Manager.
func New(env *tool.Env, m *Manager) tool.Tool { return &Tool{env: env, m: m} }

// NewGated is New with the session's gate for the files a screenshot
// saves (see SaveGate).
func NewGated(env *tool.Env, m *Manager, gate SaveGate) tool.Tool {
	return &Tool{env: env, m: m, gate: gate}
}

// Available reports whether a session offers the tool: browser.enabled
// and a Chromium found.
func Available(env *tool.Env) bool {
	return env.Settings.Browser.Enabled && env.Settings.Browser.Exec != ""
}

// Definition describes the tool, with the schema omp sends.
func (t *Tool) Definition() tool.Definition {
	strs := &tool.Schema{Type: "array", Items: &tool.Schema{Type: "string"}, Description: "extra CLI args when spawning"}
	return tool.Definition{
		Name:        Name,
		Label:       "Browser",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"action": {Type: "string", Enum: []any{"open", "close", "run"}, Description: "tab/browser operation"},
			"name": {Type: "string", Description: "tab id; default 'main'. Multiple tabs can coexist; reusable across run() calls and subagents.",
				Examples: []any{"main", "docs", "gh"}},
			"url": tool.String("open: navigate after acquiring tab"),
			"app": tool.Object(map[string]*tool.Schema{
				"path": {Type: "string", Description: "absolute path to a binary to spawn (single-instance reuse)",
					Examples: []any{"/Applications/Cursor.app/Contents/MacOS/Cursor"}},
				"cdp_url": tool.String("existing CDP endpoint to connect to (e.g. http://127.0.0.1:9222)"),
				"args":    strs,
				"target":  tool.String("substring matched against url+title to pick a BrowserWindow"),
			}),
			"viewport": tool.Object(map[string]*tool.Schema{
				"width": {Type: "number"}, "height": {Type: "number"}, "scale": {Type: "number"},
			}, "width", "height"),
			"wait_until": {Type: "string", Enum: []any{"load", "domcontentloaded", "networkidle0", "networkidle2"},
				Description: "navigation wait condition for url"},
			"dialogs": {Type: "string", Enum: []any{"accept", "dismiss"},
				Description: "open: auto-handle alert/confirm/beforeunload dialogs (default: leave them open; an open dialog blocks the page until the call times out)"},
			"code":    tool.String("run: JS body executed with `page`, `browser`, `tab`, `display`, `assert`, `wait` in scope. Treated as the body of an async function. Use `display(value)` to attach text/JSON/images; the function's return value is JSON-serialized as a final block."),
			"timeout": {Type: "number", Description: "timeout in seconds", Default: DefaultTimeout},
			"all":     tool.Boolean("close: close every tab"),
			"kill":    tool.Boolean("close: also kill spawned-app browsers (default: leave running)"),
		}, "action"),
	}
}

// args are a call's arguments.
type args struct {
	Action string `json:"action"`
	Name   string `json:"name"`
	URL    string `json:"url"`
	App    *struct {
		Path   string   `json:"path"`
		CDPURL string   `json:"cdp_url"`
		Args   []string `json:"args"`
		Target string   `json:"target"`
	} `json:"app"`
	Viewport *struct {
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
		Scale  float64 `json:"scale"`
	} `json:"viewport"`
	WaitUntil string   `json:"wait_until"`
	Dialogs   string   `json:"dialogs"`
	Code      string   `json:"code"`
	Timeout   *float64 `json:"timeout"`
	All       bool     `json:"all"`
	Kill      bool     `json:"kill"`
}

// timeout is the call's time: the default when absent, clamped to 1..30 s.
func (a args) timeout() time.Duration {
	secs := float64(DefaultTimeout)
	if a.Timeout != nil {
		secs = min(max(*a.Timeout, 1), MaxTimeout)
	}
	return time.Duration(secs * float64(time.Second))
}

// Viewport bounds: a side of at most MaxViewportSide CSS pixels, a scale
// factor in (0, MaxViewportScale]. Chromium cannot paint much more (its
// largest texture is 16384 device pixels) and spends minutes trying.
const (
	MaxViewportSide  = 8192
	MaxViewportScale = 4
	MaxDevicePixels  = 16384 // a side times the scale
)

// viewport is the call's viewport, the default when absent; a size or
// scale out of bounds is refused with the limits.
func (a args) viewport() (headless.Viewport, error) {
	if a.Viewport == nil {
		return headless.Viewport{Width: headless.DefaultWidth, Height: headless.DefaultHeight}, nil
	}
	w, h, sc := a.Viewport.Width, a.Viewport.Height, a.Viewport.Scale
	if w < 1 || h < 1 || w > MaxViewportSide || h > MaxViewportSide || w != float64(int(w)) || h != float64(int(h)) {
		return headless.Viewport{}, fmt.Errorf("viewport %gx%g is not usable: width and height must be whole numbers from 1 to %d", w, h, MaxViewportSide)
	}
	if sc < 0 || sc > MaxViewportScale || sc != sc {
		return headless.Viewport{}, fmt.Errorf("viewport scale %g is not usable: give a number above 0 and at most %d, or leave it out for %g", sc, MaxViewportScale, headless.DefaultScale)
	}
	if eff := cmp.Or(sc, headless.DefaultScale); max(w, h)*eff > MaxDevicePixels {
		return headless.Viewport{}, fmt.Errorf("viewport %gx%g at scale %g is not usable: %g device pixels across is more than Chromium can paint (%d); make it smaller or lower the scale", w, h, eff, max(w, h)*eff, MaxDevicePixels)
	}
	return headless.Viewport{Width: int(w), Height: int(h), Scale: sc}, nil
}

// Execute runs one call.
func (t *Tool) Execute(ctx context.Context, raw tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a args
	if err := raw.Decode(&a); err != nil {
		return nil, err
	}
	if a.Name == "" {
		a.Name = "main"
	}
	d := &Details{Action: a.Action, Name: a.Name}
	switch a.Action {
	case "open":
		return t.open(ctx, a, d)
	case "close":
		return t.close(a, d)
	case "run":
		return t.run(ctx, a, d)
	}
	return nil, fmt.Errorf("unsupported action %q: use open, close or run", a.Action)
}

// kindOf is the browser an open call asks for: app.cdp_url attaches,
// app.path spawns (resolved against the session's directory), else the
// headless Chromium.
func (t *Tool) kindOf(a args) browserKind {
	switch {
	case a.App != nil && a.App.CDPURL != "":
		return browserKind{tag: "connected", cdpURL: strings.TrimRight(a.App.CDPURL, "/")}
	case a.App != nil && a.App.Path != "":
		return browserKind{tag: "spawned", path: t.env.Resolve(a.App.Path), args: a.App.Args}
	}
	return browserKind{tag: "headless"}
}

// describeKind names a kind in the "bound to a different browser" error.
func describeKind(k browserKind, headlessHidden bool) string {
	switch k.tag {
	case "spawned":
		return "spawned:" + k.path
	case "connected":
		return "connected:" + k.cdpURL
	}
	if headlessHidden {
		return "headless hidden"
	}
	return "headless visible"
}

// open gets or creates the named tab and navigates it when url is given.
func (t *Tool) open(ctx context.Context, a args, d *Details) (*tool.Result, error) {
	kind := t.kindOf(a)
	d.Browser = kind.tag
	ctx, cancel := context.WithTimeout(ctx, a.timeout())
	defer cancel()
	vp, err := a.viewport()
	if err != nil {
		return nil, err
	}
	m := t.m
	m.mu.Lock()
	tab, created, note, err := t.acquire(ctx, a, kind, vp)
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if !tab.busy.TryLock() {
		return nil, fmt.Errorf("Tab %s is busy", quote(a.Name))
	}
	defer tab.busy.Unlock()
	if err := tab.settle(ctx); err != nil {
		return nil, stillBusy(ctx, t.timedOut(ctx, tab, a, err))
	}
	if a.URL != "" {
		if err := tab.page.Goto(ctx, a.URL, a.WaitUntil); err != nil {
			return nil, t.navTimedOut(ctx, tab, a, err)
		}
	}
	u, _ := tab.page.URL(ctx)
	title, _ := tab.page.Title(ctx)
	verb := "Reused"
	if created {
		verb = "Opened"
	}
	lines := []string{fmt.Sprintf("%s tab %s on %s", verb, quote(a.Name), tab.desc), "URL: " + u}
	if title != "" {
		lines = append(lines, "Title: "+title)
	}
	vpOut := tab.page.Viewport()
	d.URL, d.Viewport, d.Result = u, &vpOut, strings.Join(lines, "\n")
	return tool.TextResult(note+d.Result, d), nil
}

// acquire returns the tab of an open call, reused or new: a new tab of
// the headless Chromium is a new page; one of a spawned app or attached
// browser is a page it already has (app.target picks it). Callers hold
// t.m.mu.
func (t *Tool) acquire(ctx context.Context, a args, kind browserKind, vp headless.Viewport) (tab *Tab, created bool, note string, err error) {
	m := t.m
	if old := m.tabs[a.Name]; old != nil && old.kind.key() != kind.key() {
		return nil, false, "", fmt.Errorf("Tab %s is bound to a different browser (%s). Close it first.", quote(a.Name),
			describeKind(old.kind, m.settings.Headless))
	}
	b, note, err := m.browser(ctx, kind, vp)
	if err != nil {
		return nil, false, "", err
	}
	if old := m.tabs[a.Name]; old != nil {
		if (a.Dialogs == "" || old.dialogs == a.Dialogs) && old.page.Alive(ctx) {
			return old, false, note, nil
		}
		if !old.busy.TryLock() {
			return nil, false, "", fmt.Errorf("Tab %s is busy", quote(a.Name))
		}
		delete(m.tabs, a.Name)
		old.page.Close()
		old.busy.Unlock()
	}
	var page *headless.Tab
	desc := "headless browser (hidden)"
	switch kind.tag {
	case "headless":
		page, err = b.NewTab(ctx, headless.TabOptions{Viewport: vp, Dialogs: a.Dialogs})
		if !m.settings.Headless {
			desc = "headless browser (visible)"
		}
	default:
		target := ""
		if a.App != nil {
			target = a.App.Target
		}
		page, err = b.PickPage(ctx, target, a.Dialogs)
		desc = b.Describe()
		if kind.tag == "connected" {
			desc = "connected " + kind.cdpURL
		}
	}
	if err != nil {
		return nil, false, "", err
	}
	tab = &Tab{Name: a.Name, kind: kind, desc: desc, dialogs: a.Dialogs, page: page}
	m.tabs[a.Name] = tab
	return tab, true, note, nil
}

// close closes one tab or all.
func (t *Tool) close(a args, d *Details) (*tool.Result, error) {
	if a.All {
		d.Result = fmt.Sprintf("Closed %d tab(s)", t.m.releaseAll(a.Kill))
	} else if t.m.release(a.Name, a.Kill) {
		d.Result = "Closed tab " + quote(a.Name)
	} else {
		d.Result = "No tab named " + quote(a.Name)
	}
	return tool.TextResult(d.Result, d), nil
}

// run executes the model's code against the named tab.
func (t *Tool) run(ctx context.Context, a args, d *Details) (*tool.Result, error) {
	if strings.TrimSpace(a.Code) == "" {
		return nil, errors.New("Missing required parameter 'code' for action 'run'.")
	}
	tab := t.m.lookup(a.Name)
	if tab == nil {
		return nil, fmt.Errorf("Tab %s is not alive. Reopen it.", quote(a.Name))
	}
	if !tab.busy.TryLock() {
		return nil, fmt.Errorf("Tab %s is busy", quote(a.Name))
	}
	defer tab.busy.Unlock()
	ctx, cancel := context.WithTimeout(ctx, a.timeout())
	defer cancel()
	tab.page.MissedSelector() // forget an earlier call's
	if err := tab.settle(ctx); err != nil {
		return nil, stillBusy(ctx, t.timedOut(ctx, tab, a, err))
	}
	if !tab.page.Alive(ctx) {
		return nil, t.notAlive(a, tab)
	}
	d.Browser = tab.kind.tag
	d.URL, _ = tab.page.URL(ctx)
	// The run ends at once when the browser process exits under it.
	rctx, rcancel := context.WithCancelCause(ctx)
	watched := make(chan struct{})
	go func() {
		select {
		case <-tab.page.BrowserExited():
			rcancel(errBrowserExited)
		case <-watched:
		}
	}()
	out, err := runScript(rctx, t.env, t.gate, tab, a.Code)
	close(watched)
	rcancel(nil)
	if err != nil {
		if errors.Is(context.Cause(rctx), errBrowserExited) || tab.page.BrowserGone() || t.pageGone(tab) {
			return nil, t.notAlive(a, tab)
		}
		return nil, t.timedOut(ctx, tab, a, err)
	}
	d.Screenshots = out.screenshots
	content := out.content
	if len(content) == 0 {
		content = []tool.Content{tool.Text("Ran code on tab " + quote(a.Name))}
	}
	var texts []string
	for _, c := range content {
		if tc, ok := c.(*tool.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	d.Result = strings.Join(texts, "\n")
	return &tool.Result{Content: content, Details: d}, nil
}

// errBrowserExited ends a run whose browser process exited.
var errBrowserExited = errors.New("the browser exited")

// pageGoneBound bounds pageGone's question: it is asked after the call's
// time may have run out, so it must fit in the grace the spec allows
// past the timeout (750 ms).
const pageGoneBound = 500 * time.Millisecond

// pageGone reports, after a failed run, whether the tab's page has gone
// meanwhile (closed by the page itself, or crashed). A browser that does
// not answer within pageGoneBound is taken to be busy, not gone.
func (t *Tool) pageGone(tab *Tab) bool {
	ctx, cancel := context.WithTimeout(context.Background(), pageGoneBound)
	defer cancel()
	return !tab.page.Alive(ctx)
}

// notAlive forgets a tab whose page or browser is gone and says so.
func (t *Tool) notAlive(a args, tab *Tab) error {
	why := "its page was closed"
	if tab.page.Crashed() {
		why = "its page crashed"
	}
	if tab.page.BrowserGone() {
		why = "the browser exited or crashed; open starts it again"
	}
	t.m.release(a.Name, false)
	return fmt.Errorf("Tab %s is not alive (%s). Reopen it.", quote(a.Name), why)
}

// navTimedOut is timedOut for an open's navigation: its time running out
// is a navigation timeout (as omp's), with advice when an unanswered
// dialog holds the page.
func (t *Tool) navTimedOut(ctx context.Context, tab *Tab, a args, err error) error {
	if ctx.Err() == nil {
		return err
	}
	dialog := errors.Is(err, headless.ErrDialogOpen)
	if err = t.timedOut(ctx, tab, a, err); !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return err
	}
	msg := fmt.Sprintf("Navigation timeout of %d ms exceeded", a.timeout().Milliseconds())
	if dialog {
		msg += `: the page waits on an alert/confirm/prompt dialog; open it with dialogs "accept" or "dismiss"`
	}
	return errors.New(msg)
}

// timedOut turns err into the timeout error when the call's time ran
// out. When the call ended early (its time ran out or it was aborted),
// the page's own script is stopped first, so the tab stays usable.
func (t *Tool) timedOut(ctx context.Context, tab *Tab, a args, err error) error {
	if ctx.Err() == nil {
		return err
	}
	// What the page was stuck on, read before Unstick answers a dialog.
	dialog, sel := tab.page.DialogOpen(), tab.page.MissedSelector()
	t.m.unstick(tab)
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return err
	}
	msg := fmt.Sprintf("Browser code execution timed out after %dms", a.timeout().Milliseconds())
	if sel != "" {
		msg += fmt.Sprintf(" while waiting for selector %s: no element matched it (check it with tab.observe() or tab.evaluate)", quote(sel))
	}
	if dialog {
		msg += `; the page waits on an alert/confirm/prompt dialog: open the tab with dialogs "accept" or "dismiss" to answer dialogs`
	}
	return errors.New(msg)
}
