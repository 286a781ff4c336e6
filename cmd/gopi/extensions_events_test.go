package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// The provider request hooks and the session lifecycle events reach an
// extension over RPC: before_provider_request replaces the payload the
// provider gets (the mock records it), the four request events carry one
// request id in order, session_before_compact supplies the compaction
// (stored with fromExtension; the model is not asked for a summary),
// session_compact reports it, and session_before_tree cancels a move.
func TestExtensionProviderAndSessionEvents(t *testing.T) {
	answer := func(s string, input int) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{text(s)}, Usage: &mockllm.Usage{Input: input, Output: 5}}
	}
	r := newAgentRig(t, answer("first", 500), answer("second", 900))
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("compaction:\n  keepRecentTokens: 200\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write("events.js", `export default function (pi) {
	const seen = [];
	pi.on("before_provider_request", (e) => {
		seen.push("before " + e.requestId + " " + e.model.id);
		return Object.assign({}, e.payload, { metadata: { user_id: "set-by-extension" } });
	});
	pi.on("provider_request_prepared", (e) => { seen.push("prepared " + e.requestId + " " + e.payload.metadata.user_id + " " + (e.sessionId ? "sid" : "nosid")); });
	pi.on("after_provider_response", (e) => { seen.push("after " + e.requestId + " " + e.status); });
	pi.on("provider_request_delivered", (e) => { seen.push("delivered " + e.requestId + " " + e.status); });
	pi.on("session_before_compact", (e) => ({
		compaction: { summary: "summary by extension: " + e.preparation.messagesToSummarize.length + " messages, split " + e.preparation.isSplitTurn,
			firstKeptEntryId: e.preparation.firstKeptEntryId, tokensBefore: 7, details: { mine: true } },
	}));
	pi.on("session_compact", (e) => { seen.push("compact " + e.fromExtension + " " + e.compactionEntry.summary); });
	pi.on("session_before_tree", (e) => { seen.push("tree " + e.preparation.targetId); return { cancel: true }; });
	pi.registerCommand("seen", { handler: async () => { await pi.appendEntry("seen", { seen }); } });
}
`)
	rr := startRPC(t, r, "-e", "events.js")
	long := strings.Repeat(" word", 400)
	for _, p := range []string{"one" + long, "two" + long} {
		end := rr.Expect("agent_end")
		rr.Call("prompt", map[string]any{"message": p})
		end()
	}
	reqs := r.Srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[0].Body), `"user_id":"set-by-extension"`) {
		t.Fatalf("%d requests; the first: %.300s", len(reqs), reqs[0].Body)
	}
	resp := rr.Call("compact", nil)
	if !resp.Success || !strings.Contains(string(resp.Data), `"summary":"summary by extension: 2 messages, split false"`) {
		t.Fatalf("compact: %+v", resp)
	}
	if n := len(r.Srv.Requests()); n != 2 {
		t.Errorf("the model was asked for a summary (%d requests)", n)
	}
	var first string
	for _, line := range strings.Split(readFile(t, r.SessionFiles()[0]), "\n") {
		if strings.Contains(line, `"role":"user"`) {
			var e struct{ ID string }
			json.Unmarshal([]byte(line), &e)
			first = e.ID
			break
		}
	}
	if resp := rr.Call("navigate_tree", map[string]any{"entryId": first}); !resp.Success || !strings.Contains(string(resp.Data), `"cancelled":true`) {
		t.Errorf("the move was not cancelled: %+v", resp)
	}
	if resp := rr.Call("prompt", map[string]any{"message": "/seen"}); !resp.Success {
		t.Fatalf("/seen: %+v", resp)
	}

	file := readFile(t, r.SessionFiles()[0])
	var seen []string
	for _, line := range strings.Split(file, "\n") {
		var e struct {
			Type          string
			CustomType    string
			FromExtension bool
			Data          struct{ Seen []string }
		}
		json.Unmarshal([]byte(line), &e)
		if e.Type == "compaction" && !e.FromExtension {
			t.Errorf("the compaction is not marked fromExtension: %s", line)
		}
		if e.CustomType == "seen" {
			seen = e.Data.Seen
		}
	}
	if len(seen) != 10 {
		t.Fatalf("seen %q", seen)
	}
	for i := 0; i < 8; i += 4 {
		id := strings.Fields(seen[i])[1]
		want := []string{"before " + id + " mock-model", "prepared " + id + " set-by-extension sid", "after " + id + " 200", "delivered " + id + " 200"}
		if !strings.HasPrefix(id, "req_") || strings.Join(seen[i:i+4], "|") != strings.Join(want, "|") {
			t.Errorf("request %d events %q, want %q", i/4, seen[i:i+4], want)
		}
	}
	if seen[0] == seen[4] {
		t.Error("two requests share a request id")
	}
	if seen[8] != "compact true summary by extension: 2 messages, split false" || seen[9] != "tree "+first {
		t.Errorf("session events %q", seen[8:])
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hooks-v2 end to end: a stacking extension's pi.command "/pop N" saves a
// stack_pop entry and rebuilds the context; the next request holds the
// summary in place of the popped turns, and the session file keeps the
// entry (gopi reads the file back).
func TestExtensionStackPopOverRPC(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{text("answer one")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("answer two")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("answer three")}},
	)
	src, err := os.ReadFile(filepath.Join("..", "..", "core", "extensions", "testdata", "stack.js"))
	if err != nil {
		t.Fatal(err)
	}
	r.Write("stack.js", string(src))
	rr := startRPC(t, r, "-e", "stack.js")
	for _, p := range []string{"first question", "second question"} {
		end := rr.Expect("agent_end")
		rr.Call("prompt", map[string]any{"message": p})
		end()
	}
	// The branch index of the second user message (the file holds one
	// branch: its entries in order after the header).
	lines := strings.Split(strings.TrimSpace(readFile(t, r.SessionFiles()[0])), "\n")[1:]
	back := -1
	for i, line := range lines {
		if strings.Contains(line, `"text":"second question"`) {
			back = i
		}
	}
	if resp := rr.Call("prompt", map[string]any{"message": "/pop " + strconv.Itoa(back)}); !resp.Success {
		t.Fatalf("/pop: %+v", resp)
	}
	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "third question"})
	end()
	reqs := r.Srv.Requests()
	body := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(body, `[Summary]\n\npopped: 2 messages`) || strings.Contains(body, "second question") || !strings.Contains(body, "first question") {
		t.Errorf("the request after /pop: %s", body)
	}
	file := readFile(t, r.SessionFiles()[0])
	if !strings.Contains(file, `"type":"stack_pop"`) || !strings.Contains(file, `"backToIndex":`+strconv.Itoa(back)) {
		t.Errorf("no stack_pop entry in the file:\n%s", file)
	}
}

// user_bash: an extension answers a user's "!cmd" in place of the shell
// (the command is not run; the answer is recorded for the model), and
// input sees each prompt.
func TestExtensionUserBashAndInput(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("ok")}})
	r.Write("shell.js", `export default function (pi) {
	const prompts = [];
	pi.on("input", (e) => { prompts.push(e.text); });
	pi.on("user_bash", (e) => {
		if (e.command.startsWith("deploy")) return { result: { output: "deploys go through the release bot (" + prompts.join("|") + ")\n", exitCode: 3 } };
	});
}
`)
	rr := startRPC(t, r, "-e", "shell.js")
	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "hello there"})
	end()
	resp := rr.Call("bash", map[string]any{"command": "deploy && touch deployed"})
	if !resp.Success || !strings.Contains(string(resp.Data), `"output":"deploys go through the release bot (hello there)\n"`) || !strings.Contains(string(resp.Data), `"exitCode":3`) {
		t.Fatalf("bash: %+v %s", resp, resp.Data)
	}
	if _, err := os.Stat(filepath.Join(r.Project, "deployed")); err == nil {
		t.Error("the command ran although the extension answered it")
	}
	resp = rr.Call("bash", map[string]any{"command": "echo real"})
	if !resp.Success || !strings.Contains(string(resp.Data), `"output":"real\n"`) {
		t.Errorf("a command the extension leaves alone: %s", resp.Data)
	}
	if file := readFile(t, r.SessionFiles()[0]); !strings.Contains(file, "deploys go through the release bot") {
		t.Error("the answered command is not recorded in the session")
	}
}

// A handler that throws after the session started (an observer here) is
// reported to the RPC host as an extension_error frame naming the
// extension and the event; the session goes on.
func TestExtensionErrorFrame(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("fine")}})
	r.Write("thrower.js", `export default function (pi) {
	pi.on("turn_end", () => { throw new Error("observer broke"); });
}
`)
	rr := startRPC(t, r, "-e", "thrower.js")
	failed := rr.Expect("extension_error")
	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "hi"})
	end()
	f := failed()
	var e struct{ ExtensionPath, Event, Error string }
	json.Unmarshal(f.Raw, &e)
	if !strings.HasSuffix(e.ExtensionPath, "thrower.js") || e.Event != "turn_end" || !strings.Contains(e.Error, "observer broke") {
		t.Errorf("frame %s", f.Raw)
	}
}

// pi.setActiveTools narrows the tools the model is offered (the next
// request lists only those); an unknown name is refused with the list.
func TestExtensionSetActiveTools(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("one")}}, mockllm.Turn{Blocks: []mockllm.Block{text("two")}})
	r.Write("narrow.js", `export default function (pi) {
	pi.registerCommand("narrow", { handler: async () => {
		try { await pi.setActiveTools(["read", "nope"]); } catch (e) { pi.appendEntry("refused", { error: String(e) }); }
		await pi.setActiveTools(["read"]);
	} });
}
`)
	rr := startRPC(t, r, "-e", "narrow.js")
	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "before"})
	end()
	if resp := rr.Call("prompt", map[string]any{"message": "/narrow"}); !resp.Success {
		t.Fatal(resp.Error)
	}
	end = rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "after"})
	end()
	reqs := r.Srv.Requests()
	before, after := string(reqs[0].Body), string(reqs[1].Body)
	if !strings.Contains(before, `"name":"bash"`) || !strings.Contains(after, `"name":"read"`) || strings.Contains(after, `"name":"bash"`) {
		t.Errorf("tools before: bash %v; after: read %v, bash %v", strings.Contains(before, `"name":"bash"`), strings.Contains(after, `"name":"read"`), strings.Contains(after, `"name":"bash"`))
	}
	if file := readFile(t, r.SessionFiles()[0]); !strings.Contains(file, `no tool is named \"nope\"`) {
		t.Errorf("the unknown name was not refused:\n%s", file)
	}
}

// Custom tools from .gopi/tools: a factory returning two tools (pi.zod
// schema, pi.exec, onUpdate) and a staged change through
// pushPendingAction that the model applies with resolve; a .md tool
// description beside them is metadata and is not run.
func TestCustomToolsFromToolsDir(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("count_words", `{"text":"one two three"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("stage_note", `{"note":"remember the milk"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("resolve", `{"action":"apply","reason":"looks right"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("noted")}},
	)
	r.trustProject() // the project's own tools load only when it is trusted
	dir := filepath.Join(r.Project, ".gopi", "tools")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# not a tool\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.ts"), []byte(`
import type { CustomToolFactory } from "@oh-my-pi/pi-coding-agent";
const factory: CustomToolFactory = (pi) => [
	{
		name: "count_words",
		description: "Counts the words of a text with wc",
		parameters: pi.zod.object({ text: pi.zod.string() }),
		async execute(_id: string, params: { text: string }, onUpdate: any, _ctx: any, signal: any) {
			onUpdate?.({ content: [{ type: "text", text: "counting" }] });
			const r = await pi.exec("sh", ["-c", "printf '%s' \"$0\" | wc -w", params.text], { signal });
			return { content: [{ type: "text", text: "words: " + r.stdout.trim() + " (exit " + r.code + ")" }] };
		},
	},
	{
		name: "stage_note",
		description: "Stages a note; it is written when applied",
		parameters: pi.zod.object({ note: pi.zod.string() }),
		async execute(_id: string, params: { note: string }) {
			pi.pushPendingAction({
				label: "write NOTES.txt",
				apply: async () => {
					await pi.exec("sh", ["-c", "printf '%s\\n' \"$0\" > NOTES.txt", params.note]);
					return { content: [{ type: "text", text: "NOTES.txt written" }] };
				},
			});
			return { content: [{ type: "text", text: "staged; call resolve to apply" }] };
		},
	},
];
export default factory;
`), 0o644)
	out, stderr, code := r.run("", "-p", "take a note")
	if code != 0 || !strings.Contains(out, "noted") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	reqs := r.Srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !strings.Contains(string(reqs[1].Body), "words: 3 (exit 0)") {
		t.Errorf("count_words result missing: %.400s", reqs[1].Body)
	}
	if !strings.Contains(string(reqs[3].Body), "NOTES.txt written") {
		t.Errorf("the resolve result missing: %.600s", reqs[3].Body)
	}
	if b, err := os.ReadFile(filepath.Join(r.Project, "NOTES.txt")); err != nil || string(b) != "remember the milk\n" {
		t.Errorf("NOTES.txt: %q, %v", b, err)
	}
	if strings.Contains(stderr, "README.md") {
		t.Errorf("the .md description was loaded: %s", stderr)
	}
}

// pi.registerProvider declares a provider like a models.yml entry; its
// model can be picked with --model in the same run.
func TestExtensionRegisterProvider(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("from the extension's provider")}})
	r.Write("prov.js", `export default function (pi) {
	pi.registerProvider("team", { baseUrl: "`+r.Srv.URL()+`", api: "anthropic-messages", apiKey: "TEAM_KEY",
		models: [{ id: "team-model", name: "Team", contextWindow: 50000 }] });
	pi.registerProvider("broken", { models: [{ id: "x" }] });
}
`)
	r.Environ = append(r.Environ, "TEAM_KEY=secret")
	out, stderr, code := r.run("", "-p", "-e", "prov.js", "--model", "team/team-model", "hi")
	if code != 0 || !strings.Contains(out, "from the extension's provider") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if !strings.Contains(stderr, "broken") || !strings.Contains(stderr, "needs baseUrl and api") {
		t.Errorf("the broken provider was not reported: %q", stderr)
	}
	if reqs := r.Srv.Requests(); len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), `"model":"team-model"`) {
		t.Errorf("requests %d", len(reqs))
	}
}

// ctx.availableModels() and ctx.resolveApiKey(model) (hooks-v2's
// context): a command reads them.
func TestExtensionModelsAndKeys(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("ok")}})
	r.Write("keys.js", `export default function (pi) {
	pi.registerCommand("keys", { handler: async (_args, ctx) => {
		const models = await ctx.availableModels();
		const key = await ctx.resolveApiKey(ctx.model);
		await pi.appendEntry("keys", { models: models.map((m) => m.provider + "/" + m.id), key });
	} });
}
`)
	rr := startRPC(t, r, "-e", "keys.js")
	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "hello"}) // the file exists from the first answer on
	end()
	if resp := rr.Call("prompt", map[string]any{"message": "/keys"}); !resp.Success {
		t.Fatal(resp.Error)
	}
	file := readFile(t, r.SessionFiles()[0])
	if !strings.Contains(file, `"mock/mock-model"`) || !strings.Contains(file, `"key":"test"`) {
		t.Errorf("entry:\n%s", file)
	}
}

// disabledExtensions turns a custom tool module off as tool:<name> (the
// name /extensions gives it): it is not loaded and the model is not
// offered its tools.
func TestCustomToolTurnedOff(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("ok")}})
	r.trustProject()
	dir := filepath.Join(r.Project, ".gopi", "tools")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "notes.ts"), []byte(`export default (pi: any) => [{ name: "count_words", description: "Counts words",
	parameters: pi.zod.object({ text: pi.zod.string() }), async execute() { return { content: [{ type: "text", text: "x" }] }; } }];
`), 0o644)
	os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("disabledExtensions: [\"tool:notes\"]\n"), 0o644)
	if out, stderr, code := r.run("", "-p", "hi"); code != 0 || !strings.Contains(out, "ok") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if body := string(r.Srv.Requests()[0].Body); strings.Contains(body, "count_words") {
		t.Errorf("the tool turned off is offered: %.400s", body)
	}
}
