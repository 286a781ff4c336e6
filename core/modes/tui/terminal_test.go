package tui

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// A bash call with pty:true opens the console: its output shows, the
// user's typing reaches the command, the console closes when it ends.
func TestConsoleTyping(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"read -p 'Name? ' n; echo \"hello $n\"","pty":true}`)}},
		answer("greeted"),
	)
	r.typeAndSend("greet someone")
	r.until("the console", func() bool { return r.m.console != nil && strings.Contains(r.view(), "Name?") })
	r.key("gopi")
	r.key("enter")
	r.idle()
	if r.m.console != nil {
		t.Error("the console stayed open")
	}
	if body := string(r.llm.Requests()[1].Body); !strings.Contains(body, "hello gopi") {
		t.Errorf("the command did not get the typed name: %.400s", body)
	}
}
