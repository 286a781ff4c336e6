package irc

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/tool"
)

// Name is the tool's name.
const Name = "irc"

// Tool is the irc tool of one agent.
type Tool struct {
	reg  *Registry
	self string // the caller's agent id
}

// New returns the irc tool of the agent self over reg.
func New(reg *Registry, self string) tool.Tool { return &Tool{reg: reg, self: self} }

// PeerInfo is one entry of a list result's details.
type PeerInfo struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
	Kind        string `json:"kind"`
	Status      string `json:"status"`
	ParentID    string `json:"parentId,omitempty"`
}

// Reply is one answer in a send result's details.
type Reply struct {
	From string `json:"from"`
	Text string `json:"text"`
}

// Failure is one recipient that could not take the message.
type Failure struct {
	ID    string `json:"id"`
	Error string `json:"error"`
}

// Details are a result's structured data.
type Details struct {
	Op        string     `json:"op"`
	From      string     `json:"from,omitempty"`
	To        string     `json:"to,omitempty"`
	Delivered []string   `json:"delivered,omitempty"`
	Replies   []Reply    `json:"replies,omitempty"`
	Failed    []Failure  `json:"failed,omitempty"`
	NotFound  []string   `json:"notFound,omitempty"`
	Peers     []PeerInfo `json:"peers,omitempty"`
	Channels  []string   `json:"channels,omitempty"`
}

// Definition describes irc.
func (*Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:  Name,
		Label: "IRC",
		Description: "Talks to the other live agents of this session: the main agent is `0-Main`, a subagent goes by its task id (such as `0-AuthLoader`).\n\n" +
			"- `op: \"list\"` shows who is live; `op: \"send\"` gives `message` to the agent `to`, or to every live agent with `to: \"all\"`.\n" +
			"- A direct message waits for the recipient's reply (written from its conversation, without tools, even while it is busy in a tool); a message to all does not wait unless `awaitReply` says so. The exchange joins the recipient's conversation for its next turn.\n\n" +
			"Message a peer when the task meets something it did not foresee, when another agent holds what you need, or when a decision is not yours to make; do not use it for progress reports or for what a tool can find out. Write plain, short prose, one question at a time, address peers by their exact id, and do not ask again whether a message arrived: if it was delivered it was read. When a message reaches you, answer it before going on.",
		Parameters: tool.Object(map[string]*tool.Schema{
			"op":         {Type: "string", Enum: []any{"send", "list"}, Description: "send a message, or list the live peers"},
			"to":         tool.String(`the recipient's id (e.g. "0-Main"), or "all"`),
			"message":    tool.String("the message, in plain prose"),
			"awaitReply": {Type: "boolean", Description: "wait for the reply (default: yes for one recipient, no for all)"},
		}, "op"),
		ReadOnly: true,
	}
}

// Execute runs one call.
func (t *Tool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Op         string `json:"op"`
		To         string `json:"to"`
		Message    string `json:"message"`
		AwaitReply *bool  `json:"awaitReply"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	switch {
	case t.reg == nil:
		return tool.TextResult("IRC is unavailable in this session.", &Details{Op: a.Op}), nil
	case t.self == "":
		return tool.TextResult("IRC is unavailable: caller has no agent id.", &Details{Op: a.Op}), nil
	}
	switch a.Op {
	case "list":
		return t.list(), nil
	case "send":
		return t.send(ctx, strings.TrimSpace(a.To), strings.TrimSpace(a.Message), a.AwaitReply), nil
	}
	return tool.TextResult("Unknown irc op.", &Details{Op: a.Op}), nil
}

// list answers op list.
func (t *Tool) list() *tool.Result {
	peers := t.reg.VisibleTo(t.self)
	d := &Details{Op: "list", From: t.self, Peers: []PeerInfo{}, Channels: []string{"all"}}
	var b strings.Builder
	if len(peers) == 0 {
		b.WriteString("No other live agents.")
	} else {
		fmt.Fprintf(&b, "%d peer(s):", len(peers))
	}
	for _, p := range peers {
		info := PeerInfo{ID: p.ID, DisplayName: p.DisplayName, Kind: p.Kind, Status: p.Status(), ParentID: p.ParentID}
		fmt.Fprintf(&b, "\n- %s [%s · %s · %s]", info.ID, info.DisplayName, info.Kind, info.Status)
		d.Peers = append(d.Peers, info)
		d.Channels = append(d.Channels, p.ID)
	}
	return tool.TextResult(b.String(), d)
}

// send answers op send: every target gets the message at the same time,
// and one that fails or is slow does not keep the others from theirs.
func (t *Tool) send(ctx context.Context, to, msg string, await *bool) *tool.Result {
	d := &Details{Op: "send", From: t.self}
	if to == "" {
		return tool.TextResult("`to` is required for op=\"send\".", d)
	}
	if msg == "" {
		return tool.TextResult("`message` is required for op=\"send\".", d)
	}
	d.To = to
	broadcast := to == "all"
	var targets []Agent
	if broadcast {
		targets = t.reg.VisibleTo(t.self)
	} else if a, ok := t.reg.Get(to); ok && a.ID != t.self && live(a) {
		targets = []Agent{a}
	} else {
		d.NotFound = append(d.NotFound, to)
	}
	awaitReply := !broadcast
	if await != nil {
		awaitReply = *await
	}
	type outcome struct {
		reply string
		err   error
		ok    bool
	}
	out := make([]outcome, len(targets))
	var wg sync.WaitGroup
	for i, a := range targets {
		if a.Peer == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			reply, err := a.Peer.Respond(ctx, t.self, msg, awaitReply)
			out[i] = outcome{reply: reply, err: err, ok: true}
		}()
	}
	wg.Wait()
	for i, a := range targets {
		switch o := out[i]; {
		case !o.ok:
			d.NotFound = append(d.NotFound, a.ID)
		case o.err != nil:
			d.Failed = append(d.Failed, Failure{ID: a.ID, Error: o.err.Error()})
		default:
			d.Delivered = append(d.Delivered, a.ID)
			if awaitReply && o.reply != "" {
				d.Replies = append(d.Replies, Reply{From: a.ID, Text: o.reply})
			}
		}
	}
	return tool.TextResult(sendText(d), d)
}

// sendText is the text of a send result.
func sendText(d *Details) string {
	var b strings.Builder
	if len(d.Delivered) == 0 {
		b.WriteString("No recipients received the message.")
	} else {
		fmt.Fprintf(&b, "Delivered to %d peer(s): %s", len(d.Delivered), strings.Join(d.Delivered, ", "))
	}
	if len(d.Replies) > 0 {
		b.WriteString("\n\n## Replies")
		for _, r := range d.Replies {
			fmt.Fprintf(&b, "\n### %s\n%s", r.From, r.Text)
		}
	}
	if len(d.Failed) > 0 {
		b.WriteString("\n\n## Failed")
		for _, f := range d.Failed {
			fmt.Fprintf(&b, "\n- %s: %s", f.ID, f.Error)
		}
	}
	if len(d.NotFound) > 0 {
		fmt.Fprintf(&b, "\n\nUnknown / unavailable peers: %s", strings.Join(d.NotFound, ", "))
	}
	return b.String()
}
