package extensions

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
)

// storeHost is a Host over an in-memory session store; methods the tests
// do not reach are left to the embedded nil interface.
type storeHost struct {
	Host
	m       *session.Manager
	rebuilt int
}

func (h *storeHost) Cwd() string                  { return "/project" }
func (h *storeHost) UI() tool.UI                  { return nil }
func (h *storeHost) SessionFile() string          { return "" }
func (h *storeHost) SessionID() string            { return h.m.SessionID() }
func (h *storeHost) Branch() []*session.Entry     { return h.m.Path("") }
func (h *storeHost) AllEntries() []*session.Entry { return h.m.Entries() }
func (h *storeHost) LeafID() string               { return h.m.LeafID() }
func (h *storeHost) RebuildContext() error        { h.rebuilt++; return nil }
func (h *storeHost) SaveEntry(typ string, fields json.RawMessage) error {
	_, err := h.m.AppendOther(typ, fields)
	return err
}

// brief renders messages as "role:text" for comparisons.
func brief(msgs []ai.Message) string {
	var out []string
	for _, m := range msgs {
		text := ""
		switch m := m.(type) {
		case *ai.UserMessage:
			for _, c := range m.Content {
				if t, ok := c.(*ai.TextContent); ok {
					text += t.Text
				}
			}
		case *ai.AssistantMessage:
			for _, c := range m.Content {
				if t, ok := c.(*ai.TextContent); ok {
					text += t.Text
				}
			}
		case *message.CompactionSummary:
			text = m.Summary
		}
		out = append(out, string(m.MessageRole())+":"+strings.ReplaceAll(text, "[Summary]\n\n", "="))
	}
	return strings.Join(out, " ")
}

// The hooks-v2 reference trace, with 0-based branch indexes: a compaction
// keeps from entry 4; /pop 2 crosses it, so a summary of what came before
// entry 2 and one of entries 2–10 are stored; the context shows the
// before-summary, the popped summary and what followed. A later
// compaction covers every earlier range and alone stands for them.
func TestHooksV2LaterWins(t *testing.T) {
	m := session.InMemory("/project")
	h := &storeHost{m: m}
	add := func(role, text string) string {
		var msg ai.Message
		if role == "user" {
			msg = &ai.UserMessage{Content: ai.ContentList{&ai.TextContent{Text: text}}}
		} else {
			msg = &ai.AssistantMessage{Content: ai.ContentList{&ai.TextContent{Text: text}}}
		}
		id, err := m.AppendMessage(msg)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	var ids []string
	for i := 1; i <= 3; i++ {
		ids = append(ids, add("user", "u"+string(rune('0'+i))), add("assistant", "a"+string(rune('0'+i))))
	}
	if _, err := m.Record(session.Compaction{Summary: "C1", FirstKeptEntryID: ids[4], TokensBefore: 1}); err != nil {
		t.Fatal(err)
	}
	for i := 4; i <= 5; i++ {
		add("user", "u"+string(rune('0'+i)))
		add("assistant", "a"+string(rune('0'+i)))
	}

	r := Load(context.Background(), []Entry{{Path: filepath.Join("testdata", "stack.js"), Name: "stack"}}, Options{})
	defer r.Close()
	if errs := r.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	r.Bind(h)
	hooks := r.Hooks()
	contextOf := func() string {
		t.Helper()
		in := m.BuildContext().Messages
		out, err := hooks[0].Context(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if out == nil {
			out = in
		}
		return brief(out)
	}
	// No stack_pop yet: the handler leaves the context alone.
	if got, want := contextOf(), "compactionSummary:C1 user:u3 assistant:a3 user:u4 assistant:a4 user:u5 assistant:a5"; got != want {
		t.Errorf("before /pop:\n got %s\nwant %s", got, want)
	}
	cmds := r.Commands()
	if len(cmds) != 1 || cmds[0].Name != "pop" {
		t.Fatalf("commands %+v", cmds)
	}
	if err := cmds[0].Run(context.Background(), "2"); err != nil {
		t.Fatal(err)
	}
	pop := m.Leaf()
	if pop.Type != "stack_pop" || h.rebuilt != 1 {
		t.Fatalf("leaf %s, rebuilt %d", pop.Raw(), h.rebuilt)
	}
	var saved struct {
		BackToIndex   int
		Summary       string
		PrePopSummary string
	}
	json.Unmarshal(pop.Fields, &saved)
	if saved.BackToIndex != 2 || saved.Summary != "popped: 8 messages" || saved.PrePopSummary != "before: 2 messages" {
		t.Errorf("stack_pop entry %s", pop.Fields)
	}
	add("user", "u6")
	add("assistant", "a6")
	if got, want := contextOf(), "user:=before: 2 messages user:=popped: 8 messages user:u6 assistant:a6"; got != want {
		t.Errorf("after /pop:\n got %s\nwant %s", got, want)
	}
	// Another compaction, keeping from u7: it wins over every range.
	u7 := add("user", "u7")
	add("assistant", "a7")
	if _, err := m.Record(session.Compaction{Summary: "C2", FirstKeptEntryID: u7, TokensBefore: 1}); err != nil {
		t.Fatal(err)
	}
	if got, want := contextOf(), "user:=C2 user:u7 assistant:a7"; got != want {
		t.Errorf("after the second compaction:\n got %s\nwant %s", got, want)
	}
	// A pop to something that is not a user message changes nothing.
	n := len(m.Entries())
	if err := cmds[0].Run(context.Background(), "1"); err != nil || len(m.Entries()) != n {
		t.Errorf("pop to an assistant message: %v, %d entries (was %d)", err, len(m.Entries()), n)
	}
}

// The context event's contextMessages pair each message with its entry's
// index in the branch; messages added for this call only have null.
func TestContextMessagesEntryIndex(t *testing.T) {
	m := session.InMemory("/project")
	h := &storeHost{m: m}
	m.AppendMessage(&ai.UserMessage{Content: ai.ContentList{&ai.TextContent{Text: "hello"}}})
	m.AppendOther("marker", json.RawMessage(`{"n":1}`))
	m.Record(session.CustomMessage{CustomType: "note", Content: message.PlainText("a note"), Display: true})
	m.AppendMessage(&ai.AssistantMessage{Content: ai.ContentList{&ai.TextContent{Text: "hi"}}})
	dir := t.TempDir()
	path := writeExt(t, dir, "idx.js", `export default function (pi) {
		pi.on("context", (event) => {
			const idx = event.contextMessages.map((c) => c.entryIndex);
			const kinds = event.entries.map((e) => e.type);
			return { messages: [...event.messages, { role: "user", content: "idx=" + JSON.stringify(idx) + " kinds=" + kinds.join(","), timestamp: 0 }] };
		});
	}`)
	r := Load(context.Background(), []Entry{{Path: path, Name: "idx"}}, Options{})
	defer r.Close()
	r.Bind(h)
	in := append(m.BuildContext().Messages, &ai.UserMessage{Content: ai.ContentList{&ai.TextContent{Text: "extra"}}})
	out, err := r.Hooks()[0].Context(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	last := brief(out[len(out)-1:])
	if want := "user:idx=[0,2,3,null] kinds=message,marker,custom_message,message"; last != want {
		t.Errorf("got  %s\nwant %s", last, want)
	}
}

// A custom tool factory may return a promise; one that returns nothing is
// reported with its file; pushPendingAction before the session exists
// throws omp's error text; onSession hears start and shutdown.
func TestCustomToolFactories(t *testing.T) {
	dir := t.TempDir()
	async := writeExt(t, dir, "async.js", `export default async function (pi) {
		await new Promise((res) => setTimeout(res, 1));
		return { name: "later", description: "made after a wait", execute() { return "ok"; },
			onSession(e) { throw new Error("heard " + e.reason); } };
	}`)
	empty := writeExt(t, dir, "empty.js", `export default function (pi) {}`)
	early := writeExt(t, dir, "early.js", `export default function (pi) { pi.pushPendingAction({ label: "x", apply() {} }); }`)
	var errs []LoadError
	r := Load(context.Background(), []Entry{
		{Path: async, Name: "async", CustomTool: true},
		{Path: empty, Name: "empty", CustomTool: true},
		{Path: early, Name: "early", CustomTool: true},
	}, Options{OnError: func(e LoadError) { errs = append(errs, e) }})
	loadErrs := r.Errors()
	if len(loadErrs) != 2 || !strings.Contains(loadErrs[0].Err, "returned nothing") || loadErrs[0].Path != empty ||
		!strings.Contains(loadErrs[1].Err, "Pending action store unavailable for custom tools in this runtime.") {
		t.Errorf("load errors %v", loadErrs)
	}
	if tools := r.Tools(); len(tools) != 1 || tools[0].Definition().Name != "later" {
		t.Fatalf("tools %v", tools)
	}
	m := session.InMemory("/project")
	r.Bind(&storeHost{m: m})
	r.Close()
	// onSession's throws are reported (and name the reasons it heard).
	var heard []string
	for _, e := range errs {
		if e.Event == "onSession" && e.Path == async {
			heard = append(heard, e.Err)
		}
	}
	if len(heard) != 2 || !strings.Contains(heard[0], "heard start") || !strings.Contains(heard[1], "heard shutdown") {
		t.Errorf("onSession reports %v (all runtime errors %v)", heard, errs)
	}
}

// Shortcuts: reserved keys are refused at load (whatever their spelling),
// others are kept normalised and run their handler.
func TestShortcuts(t *testing.T) {
	for in, want := range map[string]string{"Shift+Ctrl+P": "ctrl+shift+p", "control-x": "ctrl+x", "esc": "escape", "alt+Return": "alt+enter", "ctrl+alt+k": "ctrl+alt+k"} {
		if got := NormalizeShortcut(in); got != want {
			t.Errorf("NormalizeShortcut(%q) = %q, want %q", in, got, want)
		}
	}
	dir := t.TempDir()
	bad := writeExt(t, dir, "bad.js", `export default function (pi) { pi.registerShortcut("Ctrl+C", { handler() {} }); }`)
	good := writeExt(t, dir, "good.js", `export default function (pi) {
		pi.registerShortcut("ctrl+shift+y", { description: "yank", handler: (ctx) => { globalThis.ran = ctx.cwd; } });
	}`)
	r := Load(context.Background(), []Entry{{Path: bad, Name: "bad"}, {Path: good, Name: "good"}}, Options{})
	defer r.Close()
	if errs := r.Errors(); len(errs) != 1 || !strings.Contains(errs[0].Err, "ctrl+c") || !strings.Contains(errs[0].Err, "reserved") {
		t.Errorf("errors %v", errs)
	}
	sc := r.Shortcuts()
	if len(sc) != 1 || sc[0].Key != "ctrl+shift+y" || sc[0].Description != "yank" {
		t.Fatalf("shortcuts %+v", sc)
	}
	r.Bind(&storeHost{m: session.InMemory("/project")})
	if err := sc[0].Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Message renderers: a string, a list of lines or a component with
// render(width) are read; a renderer that throws or loops is an error the
// caller falls back from.
func TestMessageRenderers(t *testing.T) {
	dir := t.TempDir()
	path := writeExt(t, dir, "draw.js", `export default function (pi) {
		pi.registerMessageRenderer("plain", (m, o, theme) => theme.bold("N=" + m.details.n + (o.expanded ? " expanded" : "")));
		pi.registerMessageRenderer("lines", (m) => ["one", "two"]);
		pi.registerMessageRenderer("component", (m) => ({ render: (w) => ["width " + w] }));
		pi.registerMessageRenderer("broken", () => { throw new Error("no"); });
		pi.registerMessageRenderer("slow", () => { for (;;) {} });
	}`)
	r := Load(context.Background(), []Entry{{Path: path, Name: "draw"}}, Options{})
	defer r.Close()
	rd := r.Renderers()
	msg := func(typ string) *message.Custom {
		return &message.Custom{CustomType: typ, Content: message.PlainText("x"), Display: true, Details: json.RawMessage(`{"n":3}`)}
	}
	for typ, want := range map[string]string{"plain": "N=3 expanded", "lines": "one\ntwo", "component": "width 40"} {
		got, err := rd[typ].Render(context.Background(), msg(typ), true, 40)
		if err != nil || got != want {
			t.Errorf("%s: %q, %v", typ, got, err)
		}
	}
	for _, typ := range []string{"broken", "slow"} {
		if _, err := rd[typ].Render(context.Background(), msg(typ), false, 40); err == nil {
			t.Errorf("%s: no error", typ)
		}
	}
}

// A tool's renderCall and renderResult draw its card.
func TestToolRenderers(t *testing.T) {
	dir := t.TempDir()
	path := writeExt(t, dir, "draw.js", `export default function (pi) {
		pi.registerTool({ name: "deploy", description: "deploys", execute() { return "ok"; },
			renderCall: (args) => "deploy → " + args.env,
			renderResult: (res, opts, theme, args) => ({ render: (w) => [res.isError ? "failed" : "shipped " + args.env, "details " + res.details.n] }) });
		pi.registerTool({ name: "plain", description: "no drawing", execute() { return "ok"; } });
	}`)
	r := Load(context.Background(), []Entry{{Path: path, Name: "draw"}}, Options{})
	defer r.Close()
	trs := r.ToolRenderers()
	if len(trs) != 1 || trs["deploy"] == nil || !trs["deploy"].HasCall() || !trs["deploy"].HasResult() {
		t.Fatalf("renderers %v", trs)
	}
	args := json.RawMessage(`{"env":"staging"}`)
	if got, err := trs["deploy"].RenderCall(context.Background(), args, 80); err != nil || got != "deploy → staging" {
		t.Errorf("call: %q %v", got, err)
	}
	res := json.RawMessage(`{"content":[{"type":"text","text":"ok"}],"details":{"n":2},"isError":false}`)
	if got, err := trs["deploy"].RenderResult(context.Background(), res, args, false, false, 80); err != nil || got != "shipped staging\ndetails 2" {
		t.Errorf("result: %q %v", got, err)
	}
}
