package browser

import (
	"strings"
	"testing"
	"time"
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

