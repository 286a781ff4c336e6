package irc

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// fakePeer answers with its name, or fails.
type fakePeer struct {
	reply string
	err   error
	got   chan bool // awaitReply of each message
}

func (p *fakePeer) Respond(_ context.Context, _, _ string, await bool) (string, error) {
	p.got <- await
	if p.err != nil {
		return "", p.err
	}
	if !await {
		return "", nil
	}
	return p.reply, nil
}

func status(s string) func() string { return func() string { return s } }

func call(t *testing.T, tl tool.Tool, args string) (string, *Details) {
	t.Helper()
	var a tool.Args
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		t.Fatal(err)
	}
	res, err := tl.Execute(context.Background(), a, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.FirstText(), res.Details.(*Details)
}

// list shows the running and idle peers but not the caller; a direct
// message waits for the reply, a broadcast does not; unknown, self and
// finished peers are reported; one failing peer does not stop the rest.
func TestIRCTool(t *testing.T) {
	reg := NewRegistry()
	mainP := &fakePeer{reply: "use Postgres", got: make(chan bool, 4)}
	bad := &fakePeer{err: errors.New("no model"), got: make(chan bool, 4)}
	reg.Register(Agent{ID: MainID, DisplayName: "Main", Kind: "main", Status: status(StatusRunning), Peer: mainP})
	reg.Register(Agent{ID: "0-A", DisplayName: "A", Kind: "subagent", Status: status(StatusIdle), Peer: &fakePeer{got: make(chan bool, 4)}})
	reg.Register(Agent{ID: "1-B", DisplayName: "B", Kind: "subagent", Status: status(StatusRunning), Peer: bad})
	leave := reg.Register(Agent{ID: "2-Done", DisplayName: "Done", Kind: "subagent", Status: status("completed")})
	tl := New(reg, "0-A")

	text, d := call(t, tl, `{"op":"list"}`)
	if text != "2 peer(s):\n- 0-Main [Main · main · running]\n- 1-B [B · subagent · running]" || !slices.Equal(d.Channels, []string{"all", "0-Main", "1-B"}) {
		t.Errorf("list: %q %v", text, d.Channels)
	}
	text, d = call(t, tl, `{"op":"send","to":" 0-Main ","message":" which db? "}`)
	if want := "Delivered to 1 peer(s): 0-Main\n\n## Replies\n### 0-Main\nuse Postgres"; text != want || !<-mainP.got {
		t.Errorf("direct send: %q", text)
	}
	text, d = call(t, tl, `{"op":"send","to":"all","message":"heads up"}`)
	if !strings.HasPrefix(text, "Delivered to 1 peer(s): 0-Main\n\n## Failed\n- 1-B: no model") || <-mainP.got || len(d.Replies) != 0 {
		t.Errorf("broadcast: %q %+v", text, d)
	}
	<-bad.got
	for _, to := range []string{"0-A", "2-Done", "nobody"} {
		text, d = call(t, tl, `{"op":"send","to":"`+to+`","message":"hi"}`)
		if text != "No recipients received the message.\n\nUnknown / unavailable peers: "+to || !slices.Equal(d.NotFound, []string{to}) {
			t.Errorf("send to %s: %q", to, text)
		}
	}
	leave()
	if _, ok := reg.Get("2-Done"); ok {
		t.Error("unregister left the agent")
	}
	for args, want := range map[string]string{
		`{"op":"send","message":"x"}`: "`to` is required for op=\"send\".",
		`{"op":"send","to":"0-Main"}`: "`message` is required for op=\"send\".",
		`{"op":"join"}`:               "Unknown irc op.",
	} {
		if text, _ := call(t, tl, args); text != want {
			t.Errorf("%s: %q", args, text)
		}
	}
	if text, _ := call(t, New(reg, ""), `{"op":"list"}`); text != "IRC is unavailable: caller has no agent id." {
		t.Errorf("no id: %q", text)
	}
}
