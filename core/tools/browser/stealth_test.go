package browser

import (
	"encoding/json"
	"strings"
	"testing"
)

// What gopi's headless Chromium shows a page (docs/tools.md lists it):
// navigator.webdriver is false and the user agent names Chrome, not
// HeadlessChrome nor an emulated device.
func TestWhatPagesSee(t *testing.T) {
	need(t)
	openPage(t, "see", "/article")
	res := ok(t, shared.m, map[string]any{"action": "run", "name": "see", "code": `return await tab.evaluate(() => [String(navigator.webdriver), navigator.userAgent])`})
	var got []string
	if err := json.Unmarshal([]byte(text(res)), &got); err != nil || len(got) != 2 {
		t.Fatalf("%q %v", text(res), err)
	}
	if got[0] != "false" || strings.Contains(got[1], "Headless") || !strings.Contains(got[1], "Chrome/") || !strings.Contains(got[1], "Linux") {
		t.Errorf("webdriver %s, user agent %q", got[0], got[1])
	}
}
