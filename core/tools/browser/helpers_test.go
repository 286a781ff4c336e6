package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/testwait"
)

// runJSON runs code on tab name and decodes its JSON result into v.
func runJSON(t *testing.T, name, code string, v any) {
	t.Helper()
	res := ok(t, shared.m, map[string]any{"action": "run", "name": name, "code": code})
	if err := json.Unmarshal([]byte(text(res)), v); err != nil {
		t.Fatalf("%s: %v in %q", code, err, text(res))
	}
}

// openPage opens tab name on path and closes it when the test ends.
func openPage(t *testing.T, name, path string) {
	t.Helper()
	ok(t, shared.m, map[string]any{"action": "open", "name": name, "url": shared.srv.URL + path, "wait_until": "load"})
	t.Cleanup(func() { ok(t, shared.m, map[string]any{"action": "close", "name": name}) })
}

// observe lists the interactive elements with ids; id() resolves one to
// a handle that clicks; ids go stale after a navigation and are unknown
// after a new observation that has fewer.
func TestObserveAndID(t *testing.T) {
	need(t)
	openPage(t, "obs", "/controls")
	var obs struct {
		URL      string
		Title    string
		Viewport struct{ Width, Height int }
		Scroll   struct{ ScrollHeight float64 }
		Elements []struct {
			ID     int
			Role   string
			Name   string
			States []string
		}
	}
	runJSON(t, "obs", `return await tab.observe()`, &obs)
	if obs.Title != "Controls" || !strings.HasSuffix(obs.URL, "/controls") || obs.Viewport.Width != 1365 || obs.Scroll.ScrollHeight < 3000 {
		t.Errorf("page data: %+v", obs)
	}
	var roles []string
	byName := map[string]int{}
	for i, e := range obs.Elements {
		if e.ID != i+1 {
			t.Errorf("ids not numbered from 1 in order: %+v", obs.Elements)
		}
		roles = append(roles, e.Role+":"+e.Name)
		byName[e.Name] = e.ID
		if e.Role == "checkbox" && strings.Join(e.States, ",") != "checked=true" {
			t.Errorf("checkbox states %v", e.States)
		}
	}
	got := strings.Join(roles, " ")
	for _, want := range []string{"link:Top", "button:Press me", "checkbox:Agree", "textbox:Your name", "combobox:", "listbox:", "button:Far away"} {
		if !strings.Contains(got, want) {
			t.Errorf("observe misses %q: %s", want, got)
		}
	}
	if strings.Contains(got, "StaticText") || strings.Contains(got, "heading") {
		t.Errorf("observe lists non-interactive nodes: %s", got)
	}
	var inView struct{ Elements []struct{ Name string } }
	runJSON(t, "obs", `return await tab.observe({viewportOnly: true})`, &inView)
	for _, e := range inView.Elements {
		if e.Name == "Far away" {
			t.Error("viewportOnly kept an element 3000px down")
		}
	}
	var all struct{ Elements []struct{ Role string } }
	runJSON(t, "obs", `return await tab.observe({includeAll: true})`, &all)
	if len(all.Elements) <= len(obs.Elements) {
		t.Errorf("includeAll: %d elements, interactive only: %d", len(all.Elements), len(obs.Elements))
	}
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "obs", "code": fmt.Sprintf(`
		const obs = await tab.observe();
		const b = obs.elements.find(e => e.name === "Press me");
		await (await tab.id(b.id)).click();
		return await tab.evaluate(() => document.getElementById("b1").textContent)`)})
	if text(res) != "pressed" {
		t.Errorf("click through id: %q", text(res))
	}
	_, err := call(t, shared.m, map[string]any{"action": "run", "name": "obs", "code": `await tab.observe(); await tab.id(999)`})
	if err == nil || !strings.Contains(err.Error(), "Unknown element id 999. Run tab.observe()") {
		t.Errorf("unknown id: %v", err)
	}
	_, err = call(t, shared.m, map[string]any{"action": "run", "name": "obs", "code": `
		await tab.observe(); await tab.evaluate(() => document.getElementById("b1").remove()); await tab.id(2)`})
	if err == nil || !strings.Contains(err.Error(), "Element id 2 is stale. Run tab.observe() again.") {
		t.Errorf("stale id: %v", err)
	}
	_, err = call(t, shared.m, map[string]any{"action": "run", "name": "obs", "code": `
		await tab.observe(); await tab.goto(tab.url(), {waitUntil: "load"}); await tab.id(1)`})
	if err == nil || !strings.Contains(err.Error(), "Unknown element id 1") {
		t.Errorf("id after goto: %v", err)
	}
}

// select sets a <select>'s options and fires change; it refuses other
// elements. uploadFile gives an <input type=file> files (relative paths
// from the session's directory) and refuses missing files.
func TestSelectAndUpload(t *testing.T) {
	need(t)
	openPage(t, "sel", "/controls")
	var got [3]any
	runJSON(t, "sel", `return [await tab.select("#one", "b"), await tab.select("#many", "x", "z", "nope"),
		await tab.evaluate(() => document.getElementById("log").textContent)]`, &got)
	if fmt.Sprint(got) != "[[b] [x z] one:b many:x,z ]" {
		t.Errorf("select: %v", got)
	}
	if _, err := call(t, shared.m, map[string]any{"action": "run", "name": "sel", "code": `await tab.select("#name", "a")`}); err == nil ||
		!strings.Contains(err.Error(), "needs a <select> element") {
		t.Errorf("select on an input: %v", err)
	}
	// call() runs in a fresh temporary directory: absolute paths here.
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	_ = os.WriteFile(a, []byte("hello"), 0o644)
	_ = os.WriteFile(b, []byte("hi"), 0o644)
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "sel", "code": fmt.Sprintf(`
		await tab.uploadFile("#file", %q, %q); return await tab.evaluate(() => document.getElementById("log").textContent)`, a, b)})
	if !strings.Contains(text(res), "files:a.txt/5,b.txt/2") {
		t.Errorf("upload: %q", text(res))
	}
	for code, want := range map[string]string{
		fmt.Sprintf(`await tab.uploadFile("#file", %q)`, filepath.Join(dir, "missing")): "no file at",
		fmt.Sprintf(`await tab.uploadFile("#name", %q)`, a):                             `needs an <input type="file"> element`,
		`await tab.uploadFile("#file")`:                                                 "at least one file path",
	} {
		if _, err := call(t, shared.m, map[string]any{"action": "run", "name": "sel", "code": code}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", code, err, want)
		}
	}
}

// drag moves the mouse with the button held from one element's centre
// (or a point) to another's in 12 steps; scrollIntoView brings an
// element far down to the middle of the viewport.
func TestDragAndScrollIntoView(t *testing.T) {
	need(t)
	openPage(t, "drag", "/drag")
	var trail [][]any
	runJSON(t, "drag", `await tab.drag("#src", {x: 220, y: 120}); return await tab.evaluate(() => trail)`, &trail)
	if len(trail) < 3 || fmt.Sprint(trail[0]) != "[down 30 30]" || fmt.Sprint(trail[len(trail)-1]) != "[up 220 120]" {
		t.Errorf("drag trail %v", trail)
	}
	if moves := len(trail) - 2; moves != 12 {
		t.Errorf("%d moves, want 12", moves)
	}
	runJSON(t, "drag", `await tab.drag({x: 5, y: 5}, "#dst"); return await tab.evaluate(() => trail.slice(-1))`, &trail)
	if fmt.Sprint(trail) != "[[up 220 120]]" {
		t.Errorf("drag to a selector: %v", trail)
	}
	for code, want := range map[string]string{`await tab.drag("#none", "#dst")`: "no element matches the from selector",
		`await tab.drag(42, "#dst")`: "neither a selector string nor an {x, y} point"} {
		if _, err := call(t, shared.m, map[string]any{"action": "run", "name": "drag", "code": code}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", code, err)
		}
	}
	openPage(t, "far", "/controls")
	var y float64
	runJSON(t, "far", `await tab.scrollIntoView("#far"); const b = await (await tab.waitFor("#far")).boundingBox();
		return b.y + b.height / 2`, &y)
	if y < 300 || y > 468 {
		t.Errorf("after scrollIntoView the element's centre is at y=%v, want about 384 (the middle)", y)
	}
}

// waitForResponse resolves with the response the page gets after it was
// called (string, RegExp or predicate), whose body text() and json()
// read; it times out with a message.
func TestWaitForResponse(t *testing.T) {
	need(t)
	openPage(t, "net", "/fetcher")
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "net", "code": `
		const [r] = await Promise.all([tab.waitForResponse("/api"), tab.click("#go")]);
		const r2p = tab.waitForResponse(/api\?n=2$/); await tab.click("#go"); const r2 = await r2p;
		const r3p = tab.waitForResponse(r => r.url().endsWith("n=3") && r.status() === 200); await tab.click("#go");
		const r3 = await r3p;
		return [r.status(), r.ok(), (await r.json()).n, await r2.text(), r3.headers()["content-type"]]`})
	if got := strings.Join(strings.Fields(text(res)), ""); got != `[200,true,"1","{\"n\":\"2\",\"ok\":true}","application/json"]` {
		t.Errorf("responses: %s", got)
	}
	_, err := call(t, shared.m, map[string]any{"action": "run", "name": "net", "code": `await tab.waitForResponse("/never", {timeout: 300})`})
	if err == nil || !strings.Contains(err.Error(), "no response matched /never in time") {
		t.Errorf("timeout: %v", err)
	}
}

// Timers: setTimeout runs its callback, clearTimeout cancels one, and
// wait() can be awaited alongside other promises.
func TestTimers(t *testing.T) {
	need(t)
	openPage(t, "tm", "/article")
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "tm", "code": `
		const seen = []; const c = setTimeout(() => seen.push("cancelled"), 1); clearTimeout(c);
		await new Promise(r => setTimeout(() => { seen.push("fired"); r() }, 5));
		await Promise.all([wait(1), wait(2)]); return seen.join(",")`})
	if text(res) != "fired" {
		t.Errorf("timers: %q", text(res))
	}
}

// open and tab.goto wait for the network to be idle as puppeteer does:
// networkidle0 never comes while a request stays open (the call times
// out), networkidle2 (the default) tolerates it.
func TestNetworkIdle(t *testing.T) {
	need(t)
	ok(t, shared.m, map[string]any{"action": "open", "name": "idle"})
	defer ok(t, shared.m, map[string]any{"action": "close", "name": "idle"})
	_, err := call(t, shared.m, map[string]any{"action": "open", "name": "idle", "url": shared.srv.URL + "/hold", "wait_until": "networkidle0", "timeout": 1})
	if err == nil || err.Error() != "Navigation timeout of 1000 ms exceeded" {
		t.Errorf("networkidle0 with a request open: %v", err)
	}
	res := ok(t, shared.m, map[string]any{"action": "open", "name": "idle", "url": shared.srv.URL + "/hold", "timeout": 10})
	if !strings.Contains(text(res), "Title: Hold") {
		t.Errorf("networkidle2: %q", text(res))
	}
	res = ok(t, shared.m, map[string]any{"action": "run", "name": "idle", "timeout": 10, "code": fmt.Sprintf(`
		await tab.goto(%q, {waitUntil: "networkidle0"}); return tab.title()`, shared.srv.URL+"/article")})
	if text(res) != "Gopi article" {
		t.Errorf("networkidle0 on a quiet page: %q", text(res))
	}
	if _, err := call(t, shared.m, map[string]any{"action": "run", "name": "idle", "code": `await tab.goto("about:blank", {waitUntil: "soon"})`}); err == nil ||
		!strings.Contains(err.Error(), `waitUntil "soon" is not one of`) {
		t.Errorf("bad waitUntil: %v", err)
	}
}

// A page that closes its own tab (window.close(), which Chromium allows
// a page with one history entry): the next call says the tab is gone,
// and open makes a new one.
func TestPageClosesItsTab(t *testing.T) {
	need(t)
	ok(t, shared.m, map[string]any{"action": "open", "name": "selfclose"})
	_, err := call(t, shared.m, map[string]any{"action": "run", "name": "selfclose", "code": `await tab.evaluate(() => { setTimeout(() => window.close(), 0) })`})
	if err != nil {
		t.Fatal(err)
	}
	page := shared.m.lookup("selfclose").page
	testwait.Until(t, "the page to close itself", func() bool { return !page.Alive(context.Background()) })
	_, err = call(t, shared.m, map[string]any{"action": "run", "name": "selfclose", "code": `return 1`})
	if err == nil || err.Error() != `Tab "selfclose" is not alive (its page was closed). Reopen it.` {
		t.Errorf("after window.close(): %v", err)
	}
	res := ok(t, shared.m, map[string]any{"action": "open", "name": "selfclose", "url": shared.srv.URL + "/article", "wait_until": "load"})
	if !strings.HasPrefix(text(res), `Opened tab "selfclose"`) {
		t.Errorf("reopen: %q", text(res))
	}
	ok(t, shared.m, map[string]any{"action": "close", "name": "selfclose"})
}

// A click or key press whose handler never returns times the run out at
// its timeout (the input event is bounded by the call), the page's
// script is stopped and the tab answers the next call.
func TestInputOnSpinningHandler(t *testing.T) {
	need(t)
	openPage(t, "spin", "/spin")
	for _, code := range []string{`await tab.click("#b")`, `await tab.press("Enter", {selector: "#b"})`} {
		_, err := call(t, shared.m, map[string]any{"action": "run", "name": "spin", "timeout": 1, "code": code})
		if err == nil || err.Error() != "Browser code execution timed out after 1000ms" {
			t.Fatalf("%s: %v", code, err)
		}
		res := ok(t, shared.m, map[string]any{"action": "run", "name": "spin", "code": `return await tab.evaluate(() => 6 * 7)`})
		if text(res) != "42" {
			t.Errorf("after %s: %q", code, text(res))
		}
	}
}

// A tab behind another one (opened after it) can be captured.
func TestScreenshotOfBackgroundTab(t *testing.T) {
	need(t)
	openPage(t, "back", "/article")
	openPage(t, "front", "/form")
	for _, name := range []string{"back", "front", "back"} {
		res := ok(t, shared.m, map[string]any{"action": "run", "name": name, "timeout": 10, "code": `await tab.screenshot(); return "shot"`})
		if !strings.Contains(text(res), "shot") {
			t.Errorf("%s: %q", name, text(res))
		}
	}
}

// Opening an address that is a download says that downloads are refused.
func TestOpenDownloadRefused(t *testing.T) {
	need(t)
	_, err := call(t, shared.m, map[string]any{"action": "open", "name": "dl", "url": shared.srv.URL + "/download.bin"})
	t.Cleanup(func() { ok(t, shared.m, map[string]any{"action": "close", "name": "dl"}) })
	if err == nil || !strings.Contains(err.Error(), "the browser refuses downloads") {
		t.Fatalf("err %v", err)
	}
}

// An open whose page waits on an alert times out as a navigation and
// says how to get past the dialog; with dialogs "accept" it loads.
func TestOpenStuckOnAlert(t *testing.T) {
	need(t)
	_, err := call(t, shared.m, map[string]any{"action": "open", "name": "alert", "url": shared.srv.URL + "/alert", "timeout": 1})
	t.Cleanup(func() { ok(t, shared.m, map[string]any{"action": "close", "name": "alert"}) })
	want := `Navigation timeout of 1000 ms exceeded: the page waits on an alert/confirm/prompt dialog; open it with dialogs "accept" or "dismiss"`
	if err == nil || err.Error() != want {
		t.Fatalf("err %v", err)
	}
	res := ok(t, shared.m, map[string]any{"action": "open", "name": "alert", "url": shared.srv.URL + "/alert", "dialogs": "accept"})
	if !strings.Contains(text(res), "Title: Alert") {
		t.Errorf("with dialogs accept: %q", text(res))
	}
}

// A page with more elements than one observation lists, and labels of
// up to a megabyte, is observed within the bounds, with a note saying
// what was left out; the tab stays usable and the ids resolve. (The
// limits are lowered in proportion to the page, which stays a few MB.)
func TestObserveHugePage(t *testing.T) {
	need(t)
	saved := observeLimits
	observeLimits.elements = 40
	t.Cleanup(func() { observeLimits = saved })
	openPage(t, "huge", "/many")
	var obs struct {
		Note     string
		Elements []struct {
			ID   int
			Role string
			Name string
		}
	}
	runJSON(t, "huge", `return await tab.observe()`, &obs)
	if len(obs.Elements) != 40 {
		t.Fatalf("%d elements listed, want 40", len(obs.Elements))
	}
	for _, e := range obs.Elements {
		if n := len([]rune(e.Name)); n > ObserveMaxText+1 {
			t.Fatalf("element %d: a name of %d characters", e.ID, n)
		}
	}
	want := "The page is large: listed the first 40 of 102 elements"
	if !strings.HasPrefix(obs.Note, want) || !strings.Contains(obs.Note, fmt.Sprintf("to %d characters", ObserveMaxText)) {
		t.Fatalf("note %q", obs.Note)
	}
	var hit int
	runJSON(t, "huge", `await tab.observe(); await (await tab.id(1)).click(); return await tab.evaluate(() => window.hit)`, &hit)
	if hit != 1 {
		t.Fatalf("the tab after observing: hit %d", hit)
	}
}
