package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

// Default viewport of a new tab, as omp's: 1365×768 CSS pixels at a
// device scale factor of 1.25.
const (
	DefaultWidth  = 1365
	DefaultHeight = 768
	DefaultScale  = 1.25
)

// Bounds on what a page can hand back to gopi, so a huge or hostile page
// cannot make gopi hold unbounded memory.
const (
	MaxHTML       = 2 << 20  // characters of page HTML read for extraction (scripts and styles left out)
	MaxEvalResult = 1 << 20  // bytes of one evaluate result (JSON)
	MaxShotHeight = 16 << 10 // CSS pixels of a full-page screenshot
)

// Viewport is a tab's size.
type Viewport struct {
	Width  int     `json:"width"`
	Height int     `json:"height"`
	Scale  float64 `json:"deviceScaleFactor"`
}

// TabOptions say how to make a tab.
type TabOptions struct {
	Viewport Viewport // zero: the default
	// Dialogs is "accept" or "dismiss": alert, confirm, prompt and
	// beforeunload dialogs are answered so; "" leaves them open (the
	// page waits, as in omp).
	Dialogs string
}

// Tab is one page of a Browser.
type Tab struct {
	page     *rod.Page
	b        *Browser
	viewport Viewport
	stop     context.CancelFunc // ends the dialog listener
	wg       sync.WaitGroup
	owned    bool                   // made by NewTab: Close closes the page
	cache    elementCache           // the ids of the last Observe
	crashed  atomic.Bool            // the page's renderer crashed (Inspector.targetCrashed)
	missed   atomic.Pointer[string] // the selector of a wait that ran out of time
	dialog   atomic.Bool            // a dialog is open and waits for an answer
	netState                        // network events, on once a watch needs them
}

// NewTab opens a blank page with o's viewport and dialog policy.
func (b *Browser) NewTab(ctx context.Context, o TabOptions) (*Tab, error) {
	created, err := proto.TargetCreateTarget{URL: "about:blank"}.Call(b.rod.Context(ctx))
	if err != nil {
		return nil, fmt.Errorf("open a page: %w", err)
	}
	p, err := b.rod.PageFromTarget(created.TargetID)
	if err != nil {
		return nil, fmt.Errorf("attach to the new page: %w", err)
	}
	vp := o.Viewport
	if vp.Width <= 0 || vp.Height <= 0 {
		vp = Viewport{Width: DefaultWidth, Height: DefaultHeight}
	}
	if vp.Scale <= 0 {
		vp.Scale = DefaultScale
	}
	t := &Tab{page: p.Context(context.Background()), b: b, viewport: vp, stop: func() {}, owned: true}
	if err := (proto.EmulationSetDeviceMetricsOverride{Width: vp.Width, Height: vp.Height,
		DeviceScaleFactor: vp.Scale}).Call(p); err != nil {
		t.Close()
		return nil, fmt.Errorf("set the viewport: %w", err)
	}
	if err := t.listen(o.Dialogs); err != nil {
		t.Close()
		return nil, err
	}
	// The one stealth measure besides --disable-blink-features=
	// AutomationControlled: the user agent says Chrome, not HeadlessChrome.
	if v, err := (proto.BrowserGetVersion{}).Call(b.rod.Context(ctx)); err == nil && strings.Contains(v.UserAgent, "HeadlessChrome/") {
		ua := strings.Replace(v.UserAgent, "HeadlessChrome/", "Chrome/", 1)
		if err := (proto.EmulationSetUserAgentOverride{UserAgent: ua}).Call(p); err != nil {
			t.Close()
			return nil, fmt.Errorf("set the user agent: %w", err)
		}
	}
	return t, nil
}

// listen turns the page's lifecycle events on (Goto waits for them) and
// answers dialogs by policy ("accept", "dismiss"; "" leaves them).
func (t *Tab) listen(dialogs string) error {
	p := t.page
	if err := (proto.PageEnable{}).Call(p); err != nil {
		return fmt.Errorf("enable page events: %w", err)
	}
	if err := (proto.PageSetLifecycleEventsEnabled{Enabled: true}).Call(p); err != nil {
		return fmt.Errorf("enable page events: %w", err)
	}
	// Inspector events say when the page's renderer crashes (killed,
	// out of memory): the page is dead then, though its target stays.
	if err := (proto.InspectorEnable{}).Call(p); err != nil {
		return fmt.Errorf("enable page events: %w", err)
	}
	lctx, stop := context.WithCancel(context.Background())
	t.stop = stop
	lp := t.page.Context(lctx)
	handlers := []any{func(*proto.InspectorTargetCrashed) { t.crashed.Store(true) },
		func(*proto.PageJavascriptDialogOpening) { t.dialog.Store(true) },
		func(*proto.PageJavascriptDialogClosed) { t.dialog.Store(false) }}
	if dialogs == "accept" || dialogs == "dismiss" {
		accept := dialogs == "accept"
		handlers = append(handlers, func(e *proto.PageJavascriptDialogOpening) {
			go func() { _ = proto.PageHandleJavaScriptDialog{Accept: accept, PromptText: e.DefaultPrompt}.Call(lp) }()
		})
	}
	wait := lp.EachEvent(handlers...)
	t.wg.Add(1)
	go func() { defer t.wg.Done(); wait() }()
	return nil
}

// attachSkip matches the pages of an app that are not its windows.
var attachSkip = regexp.MustCompile(`(?i)request[\s_-]?handler|devtools|background[\s_-]?(?:page|host)|service[\s_-]?worker`)

// PickPage makes a Tab of a page the browser already has (an attached
// browser or a spawned app), left open by Close: the first whose URL or
// title contains target (case-insensitive), or without target the first
// that is not a devtools, background or service-worker page.
func (b *Browser) PickPage(ctx context.Context, target, dialogs string) (*Tab, error) {
	targets, err := proto.TargetGetTargets{}.Call(b.rod.Context(ctx))
	if err != nil {
		return nil, fmt.Errorf("list the browser's pages: %w", err)
	}
	var pages []*proto.TargetTargetInfo
	for _, ti := range targets.TargetInfos {
		if ti.Type == proto.TargetTargetInfoTypePage {
			pages = append(pages, ti)
		}
	}
	if len(pages) == 0 {
		return nil, errors.New("No page targets available on the attached browser")
	}
	pick := pages[0]
	if target != "" {
		pick = nil
		needle := strings.ToLower(target)
		var list []string
		for _, ti := range pages {
			if strings.Contains(strings.ToLower(ti.URL), needle) || strings.Contains(strings.ToLower(ti.Title), needle) {
				pick = ti
				break
			}
			title := strings.TrimSpace(ti.Title)
			if title == "" {
				title = "(untitled)"
			}
			list = append(list, "- "+title+"  "+ti.URL)
		}
		if pick == nil {
			return nil, fmt.Errorf("No page target matched %s. Available pages:\n%s", strconv.Quote(target), strings.Join(list, "\n"))
		}
	} else {
		for _, ti := range pages {
			if !attachSkip.MatchString(ti.URL) && !attachSkip.MatchString(ti.Title) {
				pick = ti
				break
			}
		}
	}
	p, err := b.rod.PageFromTarget(pick.TargetID)
	if err != nil {
		return nil, fmt.Errorf("Target %s is no longer available on the attached browser", pick.TargetID)
	}
	t := &Tab{page: p.Context(context.Background()), b: b, stop: func() {}}
	if res, err := t.page.Context(ctx).Eval(`() => ({width: innerWidth, height: innerHeight, deviceScaleFactor: devicePixelRatio})`); err == nil {
		_ = json.Unmarshal([]byte(res.Value.JSON("", "")), &t.viewport)
	}
	if err := t.listen(dialogs); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// Viewport returns the tab's viewport.
func (t *Tab) Viewport() Viewport { return t.viewport }

// TargetID is the page's CDP target id.
func (t *Tab) TargetID() string { return string(t.page.TargetID) }

// BrowserGone reports whether the tab's browser has exited or its
// DevTools connection closed (then every tab of it is gone).
func (t *Tab) BrowserGone() bool { return t.b.Exited() }

// DialogOpen reports whether an alert, confirm, prompt or beforeunload
// dialog of the page waits for an answer.
func (t *Tab) DialogOpen() bool { return t.dialog.Load() }

// Crashed reports whether the page's renderer crashed.
func (t *Tab) Crashed() bool { return t.crashed.Load() }

// BrowserExited is closed when the tab's browser process has ended (a
// browser gopi started) or its DevTools connection closed (an attached
// one).
func (t *Tab) BrowserExited() <-chan struct{} {
	if t.b.cmd == nil {
		return t.b.ws.closed
	}
	return t.b.exited
}

// Alive reports whether the page still exists (a page can close itself
// with window.close(); a crashed browser takes its pages along). A
// browser that does not answer within ctx (stopped, busy) is not taken
// for dead: the page counts as alive and the caller's own call times out.
func (t *Tab) Alive(ctx context.Context) bool {
	if t.b.Exited() || t.crashed.Load() {
		return false
	}
	_, err := proto.TargetGetTargetInfo{TargetID: t.page.TargetID}.Call(t.b.rod.Context(ctx))
	return err == nil || ctx.Err() != nil
}

// Close stops the tab's listeners and closes its page when NewTab made
// it (a page picked from an attached browser stays open).
func (t *Tab) Close() {
	t.stop()
	if t.owned {
		ctx, cancel := context.WithTimeout(context.Background(), AttachTimeout)
		defer cancel()
		_, _ = proto.TargetCloseTarget{TargetID: t.page.TargetID}.Call(t.b.rod.Context(ctx))
	}
	t.wg.Wait()
}

// waitEvents are the page lifecycle events Goto waits for, by puppeteer's
// waitUntil names: networkidle0 is no connection for 500 ms,
// networkidle2 at most two for 500 ms (Chromium's own measures).
var waitEvents = map[string]proto.PageLifecycleEventName{
	"load":             proto.PageLifecycleEventNameLoad,
	"domcontentloaded": proto.PageLifecycleEventNameDOMContentLoaded,
	"networkidle0":     proto.PageLifecycleEventNameNetworkIdle,
	"networkidle2":     proto.PageLifecycleEventNameNetworkAlmostIdle,
}

// DefaultWaitUntil is what Goto waits for when told nothing (omp's).
const DefaultWaitUntil = "networkidle2"

// Goto navigates to url and waits, within ctx, for waitUntil: "load",
// "domcontentloaded", "networkidle0" or "networkidle2" (the default).
// The ids of the last observation are dropped.
//
// When ctx ends while a dialog the page opened is waiting for an answer,
// the error also wraps ErrDialogOpen.
func (t *Tab) Goto(ctx context.Context, url, waitUntil string) (err error) {
	if waitUntil == "" {
		waitUntil = DefaultWaitUntil
	}
	want, ok := waitEvents[waitUntil]
	if !ok {
		return fmt.Errorf("waitUntil %q is not one of load, domcontentloaded, networkidle0, networkidle2", waitUntil)
	}
	t.clearElements(ctx)
	p := t.page.Context(ctx)
	// Listen before navigating, so that no event of the new document is missed.
	lctx, cancel := context.WithCancel(ctx)
	events := make(chan *proto.PageLifecycleEvent, 16)
	var dialog atomic.Bool // a dialog opened and was not answered
	wait := p.Context(lctx).EachEvent(func(e *proto.PageLifecycleEvent) {
		select {
		case events <- e:
		case <-lctx.Done():
		}
	}, func(*proto.PageJavascriptDialogOpening) { dialog.Store(true) },
		func(*proto.PageJavascriptDialogClosed) { dialog.Store(false) })
	done := make(chan struct{})
	go func() { defer close(done); wait() }()
	defer func() {
		cancel()
		<-done
		if err != nil && ctx.Err() != nil && dialog.Load() {
			err = fmt.Errorf("%w (%w)", err, ErrDialogOpen)
		}
	}()
	if scheme, _, _ := strings.Cut(url, ":"); strings.EqualFold(scheme, "javascript") {
		return fmt.Errorf("navigate to %s: javascript: addresses are not opened; run the code with action run (tab.evaluate) instead", url)
	}
	nav, err := proto.PageNavigate{URL: url}.Call(p)
	if err != nil {
		var ce *cdp.Error
		if errors.As(err, &ce) && strings.Contains(ce.Message, "invalid URL") {
			return fmt.Errorf("navigate to %q: not an address the browser can open; give a full URL such as https://example.com/", url)
		}
		return fmt.Errorf("navigate to %s: %w", url, Explain(err))
	}
	if nav.ErrorText == "net::ERR_ABORTED" {
		if !isWebURL(url) {
			return fmt.Errorf("navigate to %s: net::ERR_ABORTED, nothing was loaded: the browser does not open this kind of address as a page; use an http(s) URL", url)
		}
		// What a download gives (they are refused), or a 204 answer.
		return fmt.Errorf("navigate to %s: net::ERR_ABORTED, nothing was loaded: the browser refuses downloads, so if the address is a file, fetch it another way (e.g. curl in bash)", url)
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("navigate to %s: %s", url, nav.ErrorText)
	}
	if nav.LoaderID == "" { // a same-document navigation (a #fragment): nothing loads
		return nil
	}
	for {
		select {
		case e := <-events:
			if e.FrameID == nav.FrameID && e.LoaderID == nav.LoaderID && e.Name == want {
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// isWebURL reports whether u is an http(s) address.
func isWebURL(u string) bool {
	l := strings.ToLower(u)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// ErrDialogOpen says that a page is waiting on an alert, confirm or
// prompt dialog nobody answered.
var ErrDialogOpen = errors.New("the page is waiting on a dialog")

// URL is the page's address.
func (t *Tab) URL(ctx context.Context) (string, error) {
	info, err := t.info(ctx)
	if err != nil {
		return "", err
	}
	return info.URL, nil
}

// Title is the page's title.
func (t *Tab) Title(ctx context.Context) (string, error) {
	info, err := t.info(ctx)
	if err != nil {
		return "", err
	}
	return info.Title, nil
}

// info is the page's target info, asked within ctx. (rod's Page.Info
// asks through the browser's own context, not the page's: a browser
// busy with a huge page held it well past the call's timeout.)
func (t *Tab) info(ctx context.Context) (*proto.TargetTargetInfo, error) {
	res, err := proto.TargetGetTargetInfo{TargetID: t.page.TargetID}.Call(t.b.rod.Context(ctx))
	if err != nil {
		return nil, err
	}
	return res.TargetInfo, nil
}

// element waits until selector matches an element and returns it. The
// selector is CSS, text/…, xpath/… or aria/… as in puppeteer, or one of
// the Playwright-style p-text/, p-xpath/, p-aria/ forms omp rewrites.
//
// When ctx ends first, the selector is remembered (MissedSelector), so
// the call's timeout can say what it was waiting for.
func (t *Tab) element(ctx context.Context, selector string) (*rod.Element, error) {
	el, err := findIn(t.page.Context(ctx), selector)
	if err != nil && ctx.Err() != nil {
		t.missed.Store(&selector)
	}
	return el, err
}

// MissedSelector returns the selector of the last wait for an element that
// ran out of time, "" when none did since the last call, and forgets it.
func (t *Tab) MissedSelector() string {
	if p := t.missed.Swap(nil); p != nil {
		return *p
	}
	return ""
}

// findIn finds selector's element with p's sleeper (waiting or not).
func findIn(p *rod.Page, selector string) (*rod.Element, error) {
	selector, err := normalizeSelector(selector)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.HasPrefix(selector, "xpath/"):
		return p.ElementX(strings.TrimPrefix(selector, "xpath/"))
	case strings.HasPrefix(selector, "text/"):
		s, _ := json.Marshal(strings.TrimPrefix(selector, "text/"))
		return p.ElementByJS(rod.Eval(`(s) => {
			const w = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
			for (let n = w.nextNode(); n; n = w.nextNode()) if (n.textContent.includes(s)) return n.parentElement;
			return null }`, json.RawMessage(s)))
	case strings.HasPrefix(selector, "aria/"):
		s, _ := json.Marshal(strings.TrimPrefix(selector, "aria/"))
		return p.ElementByJS(rod.Eval(ariaJS, json.RawMessage(s)))
	case strings.HasPrefix(selector, "pierce/"):
		return nil, fmt.Errorf("selector %q: pierce/ is not supported by gopi; use CSS, text/…, aria/… or xpath/…", selector)
	}
	el, err := p.Element(selector)
	var ee *rod.EvalError
	if errors.As(err, &ee) && ee.Exception != nil {
		// querySelector threw: the selector is not valid CSS.
		return nil, fmt.Errorf("selector %q is not valid CSS (%s); use CSS, text/…, aria/… or xpath/…", selector,
			strings.TrimSpace(strings.SplitN(ee.Exception.Description, "\n", 2)[0]))
	}
	return el, err
}

// ariaJS finds the first element whose accessible name (aria-label,
// the labelledby text, a label, alt, title or its text) is s.
const ariaJS = `(s) => {
	const name = el => {
		const by = el.getAttribute("aria-labelledby");
		if (by) return by.split(/\s+/).map(id => document.getElementById(id)?.textContent || "").join(" ").trim();
		const a = el.getAttribute("aria-label") || (el.labels && el.labels[0] && el.labels[0].textContent) || el.getAttribute("alt") || el.getAttribute("title");
		return (a || el.textContent || "").trim().replace(/\s+/g, " ");
	};
	for (const el of document.querySelectorAll("*")) if (name(el) === s && ![...el.children].some(c => name(c) === s)) return el;
	return null }`

// normalizeSelector rewrites omp's Playwright-style prefixes to the
// puppeteer ones and refuses other p-… prefixes.
func normalizeSelector(selector string) (string, error) {
	for _, p := range []string{"text/", "xpath/", "pierce/"} {
		if rest, ok := strings.CutPrefix(selector, "p-"+p); ok {
			return p + rest, nil
		}
	}
	if rest, ok := strings.CutPrefix(selector, "p-aria/"); ok {
		if m := ariaName.FindStringSubmatch(rest); m != nil {
			return "aria/" + strings.TrimSpace(m[1]+m[2]+m[3]), nil
		}
		return "aria/" + rest, nil
	}
	if strings.HasPrefix(selector, "p-") {
		return "", fmt.Errorf("unsupported selector prefix in %q: use CSS or text/…, aria/…, xpath/…", selector)
	}
	return selector, nil
}

// ariaName is the [name="…"] part of a p-aria/ selector.
var ariaName = regexp.MustCompile(`\[\s*name\s*=\s*(?:"([^"]+)"|'([^']+)'|([^\]]+))\s*\]`)

// WaitFor waits until selector matches.
func (t *Tab) WaitFor(ctx context.Context, selector string) error {
	_, err := t.element(ctx, selector)
	return err
}

// Click clicks the element selector matches, once it is there.
func (t *Tab) Click(ctx context.Context, selector string) error {
	el, err := t.element(ctx, selector)
	if err != nil {
		return err
	}
	return t.clickElement(ctx, el)
}

// Type types text into the element selector matches, after what it holds.
func (t *Tab) Type(ctx context.Context, selector, text string) error {
	el, err := t.element(ctx, selector)
	if err != nil {
		return err
	}
	if err := el.Focus(); err != nil {
		return err
	}
	return t.page.Context(ctx).InsertText(text)
}

// Fill replaces the value of the element selector matches.
func (t *Tab) Fill(ctx context.Context, selector, value string) error {
	el, err := t.element(ctx, selector)
	if err != nil {
		return err
	}
	if err := el.SelectAllText(); err != nil {
		return err
	}
	return el.Input(value)
}

// keys maps puppeteer key names to rod's.
var keys = map[string]input.Key{
	"Enter": input.Enter, "Tab": input.Tab, "Escape": input.Escape, "Backspace": input.Backspace,
	"Delete": input.Delete, "ArrowUp": input.ArrowUp, "ArrowDown": input.ArrowDown,
	"ArrowLeft": input.ArrowLeft, "ArrowRight": input.ArrowRight, "Space": input.Space,
	"Home": input.Home, "End": input.End, "PageUp": input.PageUp, "PageDown": input.PageDown,
}

// Press presses key (a puppeteer key name), on selector when given.
func (t *Tab) Press(ctx context.Context, key, selector string) error {
	if selector != "" {
		el, err := t.element(ctx, selector)
		if err != nil {
			return err
		}
		if err := el.Focus(); err != nil {
			return err
		}
	}
	return t.pressKey(ctx, key)
}

// pressKey presses key (a puppeteer key name) where the focus is.
func (t *Tab) pressKey(ctx context.Context, key string) error {
	k, ok := keys[key]
	if !ok {
		r := []rune(key)
		if len(r) != 1 {
			return fmt.Errorf("unknown key %q: use a single character or Enter, Tab, Escape, Backspace, Arrow…", key)
		}
		k = input.Key(r[0])
	}
	return t.key(ctx, k)
}

// Scroll scrolls the page by dx, dy CSS pixels.
func (t *Tab) Scroll(ctx context.Context, dx, dy float64) error {
	_, err := t.page.Context(ctx).Eval(`(x, y) => window.scrollBy(x, y)`, dx, dy)
	return err
}

// ErrResultTooLarge is returned when a value from the page exceeds
// MaxEvalResult once encoded.
var ErrResultTooLarge = errors.New("the page returned more than 1 MiB of JSON: return a smaller value")

// Evaluate runs the function whose source is fn in the page with args
// (JSON values), awaits it, and returns its result as JSON ("null" for
// undefined), at most MaxEvalResult bytes.
func (t *Tab) Evaluate(ctx context.Context, fn string, args []json.RawMessage) (json.RawMessage, error) {
	res, err := t.page.Context(ctx).Evaluate(rod.Eval(evalJS(fn, false), rawArgs(args), MaxEvalResult).ByPromise())
	return evalResult(res, err)
}

// evalJS wraps fn so that its awaited result comes back as JSON text, or
// null when over the cap; withThis passes the element (this) first.
func evalJS(fn string, withThis bool) string {
	call := "(...args)"
	if withThis {
		call = "(this, ...args)"
	}
	return fmt.Sprintf(`async function (args, cap) {
		const v = await (%s)%s;
		const s = JSON.stringify(v);
		if (s === undefined) return "null";
		return s.length > cap ? null : s }`, fn, call)
}

// rawArgs are JSON arguments as rod passes them.
func rawArgs(args []json.RawMessage) []any {
	a := make([]any, len(args))
	for i, x := range args {
		a[i] = x
	}
	return a
}

// evalResult is the JSON an evalJS function returned.
func evalResult(res *proto.RuntimeRemoteObject, err error) (json.RawMessage, error) {
	if err != nil {
		return nil, err
	}
	if res.Value.Nil() {
		return nil, ErrResultTooLarge
	}
	return json.RawMessage(res.Value.Str()), nil
}

// serializeJS writes the document as HTML up to cap characters, walking
// the DOM so that a huge page is never serialized whole (outerHTML of a
// 100 MB document takes seconds and as much memory). Scripts, styles and
// noscript are written empty: extraction drops them anyway.
const serializeJS = `(cap) => {
	const out = []; let n = 0;
	const esc = s => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
	const q = s => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
	const empty = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
	const skip = new Set(["script", "style", "noscript"]);
	const push = s => { if (n + s.length > cap) s = s.slice(0, cap - n); out.push(s); n += s.length; return n < cap; };
	const walk = node => {
		if (node.nodeType === 3) { const d = node.data; push(esc(d.length > cap - n ? d.slice(0, cap - n) : d)); return; }
		if (node.nodeType !== 1) return;
		const tag = node.localName;
		let open = "<" + tag;
		for (const a of node.attributes) open += " " + a.name + '="' + q(a.value) + '"';
		if (!push(open + ">") || empty.has(tag)) return;
		if (skip.has(tag)) { push("</" + tag + ">"); return; }
		for (const c of (tag === "template" ? node.content.childNodes : node.childNodes)) { walk(c); if (n >= cap) return; }
		push("</" + tag + ">");
	};
	if (document.documentElement) walk(document.documentElement);
	return out.join("");
}`

// HTML returns the page's HTML, cut at MaxHTML characters.
func (t *Tab) HTML(ctx context.Context) (string, error) {
	res, err := t.page.Context(ctx).Eval(serializeJS, MaxHTML)
	if err != nil {
		return "", err
	}
	return res.Value.Str(), nil
}

// Screenshot returns a PNG of the viewport, of the whole page (fullPage,
// at most MaxShotHeight CSS pixels tall) or of the element selector
// matches.
//
// A background tab is not painted, so it is brought to the front first;
// captures of one browser take turns, so that another tab cannot come to
// the front in between.
func (t *Tab) Screenshot(ctx context.Context, fullPage bool, selector string) ([]byte, error) {
	p := t.page.Context(ctx)
	var el *rod.Element
	if selector != "" {
		var err error
		if el, err = t.element(ctx, selector); err != nil {
			return nil, fmt.Errorf("screenshot: no element matches %q: %w", selector, err)
		}
	}
	t.b.front.Lock()
	defer t.b.front.Unlock()
	if err := (proto.PageBringToFront{}).Call(p); err != nil {
		return nil, fmt.Errorf("screenshot: bring the tab to the front: %w", err)
	}
	if el != nil {
		return el.Screenshot(proto.PageCaptureScreenshotFormatPng, 0)
	}
	req := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng}
	if fullPage {
		m, err := proto.PageGetLayoutMetrics{}.Call(p)
		if err != nil {
			return nil, err
		}
		size := m.CSSContentSize
		req.Clip = &proto.PageViewport{X: 0, Y: 0, Width: size.Width, Height: min(size.Height, MaxShotHeight), Scale: 1}
		req.CaptureBeyondViewport = true
	}
	shot, err := req.Call(p)
	if err != nil {
		return nil, err
	}
	return shot.Data, nil
}

// Unstick frees a page after a call ran out of time: the page's running
// script is terminated, loading stops and an open dialog is dismissed, so
// the tab answers the next call. It gives up when ctx ends: on a page that
// keeps Chromium busy (a huge layout) the answers can take seconds, so
// callers run it in the background with a bound.
func (t *Tab) Unstick(ctx context.Context) {
	p := t.page.Context(ctx)
	_ = proto.PageHandleJavaScriptDialog{Accept: false}.Call(p) // first: an open dialog holds the next calls
	_ = proto.RuntimeTerminateExecution{}.Call(p)
	_ = proto.PageStopLoading{}.Call(p)
}
