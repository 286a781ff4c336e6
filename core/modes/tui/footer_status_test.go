package tui

import (
	"strings"
	"testing"
)

// Footer refreshes run concurrently and may finish out of order (the
// first loads a tokenizer): an older one arriving last must not put back
// the model a later one replaced (the plan-mode footer showed the default
// model after /plan switched to the plan model).
func TestFooterKeepsNewestRefresh(t *testing.T) {
	r := newRig(t)
	older, newer := r.m.refreshStatus(), r.m.refreshStatus()
	oldMsg := older().(statusMsg)
	oldMsg.st.model = "mock/stale-model"
	newMsg := newer().(statusMsg)
	newMsg.st.model = "mock/fresh-model"
	r.m.Update(newMsg)
	r.m.Update(oldMsg)
	if f := r.m.footer(); !strings.Contains(f, "mock/fresh-model") || strings.Contains(f, "stale") {
		t.Fatalf("footer after out-of-order refreshes: %q", f)
	}
}
