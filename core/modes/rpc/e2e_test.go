package rpc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/launch"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/golden"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
	"github.com/gopi-agent/gopi/sdk/rpcclient"
)

// newAgentRig is an isolated home whose mock LLM answers with turns.
func newAgentRig(t testing.TB, turns ...mockllm.Turn) *agentrig.Rig { return agentrig.New(t, turns...) }

// startRPC serves RPC mode on a session built through the launch path
// the command takes, in the rig's project with the mock model; flags are
// the command line's --continue and --no-session.
func startRPC(t testing.TB, r *agentrig.Rig, flags ...string) *agentrig.RPC {
	t.Helper()
	req := &launch.Request{Cwd: r.Project, Environ: r.Environ, Mode: launch.RPC, Model: "mock/mock-model"}
	for _, f := range flags {
		switch f {
		case "--continue":
			req.Continue = true
		case "--no-session":
			req.NoSession = true
		default:
			t.Fatalf("startRPC: unknown flag %s", f)
		}
	}
	return serveRPC(t, r, req)
}

// serveRPC serves RPC mode on the session req describes.
func serveRPC(t testing.TB, r *agentrig.Rig, req *launch.Request) *agentrig.RPC {
	t.Helper()
	return r.StartRPC(func(in io.Reader, out io.Writer) int {
		ctx := context.Background()
		cfg, err := launch.LoadConfig(req)
		if err != nil {
			t.Error(err)
			return 2
		}
		st, err := launch.Open(ctx, req, cfg, func(o *agentsession.Options) { o.NoTitle = true })
		if err != nil {
			t.Error(err)
			return 2
		}
		return st.RunRPC(ctx, cfg, in, out)
	})
}

// db is the host's URI store.
type dbHost struct{}

func (dbHost) Read(_ context.Context, url string) (rpcclient.URIContent, error) {
	if url == "db://users/42" {
		return rpcclient.URIContent{Content: "id=42\nname=Alice\n", Notes: []string{"fresh"}}, nil
	}
	return rpcclient.URIContent{}, fmt.Errorf("no row %s", url)
}

func (dbHost) Write(context.Context, string, string) error { return nil }

func text(s string) mockllm.Block { return mockllm.Text(s) }

// The golden transcript of an RPC session: ready, state, names, host tools
// (success and error), a host URI read, prompts with streamed text and tool
// calls, steering and follow-ups while streaming in both queue modes,
// abort, queries, parse errors, an unknown command, and the exit on EOF.
func TestRPCTranscript(t *testing.T) {
	t.Parallel()
	transcript, err := filepath.Abs(filepath.Join("testdata", "transcript.txt"))
	if err != nil {
		t.Fatal(err)
	}
	slow := func(s string) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{text(s)}, ChunkSize: 4, ChunkDelay: 60 * time.Millisecond, Usage: &mockllm.Usage{Input: 10, Output: 3}}
	}
	quick := func(b ...mockllm.Block) mockllm.Turn {
		return mockllm.Turn{Blocks: b, ChunkSize: 1000, Usage: &mockllm.Usage{Input: 10, Output: 3}}
	}
	r := newAgentRig(t,
		// 1. host tool, host URI, answer
		quick(agentrig.ToolCall("echo_host", map[string]any{"message": "hi"})),
		quick(agentrig.ToolCall("read", map[string]any{"path": "db://users/42"})),
		quick(text("Alice, and the echo said hi.")),
		// 2. host tool error
		quick(agentrig.ToolCall("echo_host", map[string]any{"message": "fail"})),
		quick(text("The host tool failed.")),
		// 3. two steers while streaming, one at a time
		slow("first answer"),
		quick(text("about s1")),
		quick(text("about s2")),
		// 4. two follow-ups while streaming, all at once
		slow("second answer"),
		quick(text("about f1 and f2")),
		// 5. two steers, all at once; two follow-ups, one at a time
		slow("third answer"),
		quick(text("about s3 and s4")),
		slow("fourth answer"),
		quick(text("about f3")),
		quick(text("about f4")),
		// 6. abort
		mockllm.Turn{Blocks: []mockllm.Block{text("this never ends")}, ChunkSize: 4, StallAfterDeltas: 2},
	)
	rr := startRPC(t, r)
	rr.C.OnUI(func(rpcclient.UIRequest) rpcclient.UIAnswer { return rpcclient.UIAnswer{Cancelled: true} })

	rr.Call("get_state", nil)
	if resp := rr.Call("set_session_name", map[string]any{"name": ""}); resp.Success || resp.Error != "Session name cannot be empty" {
		t.Fatalf("empty name: %+v", resp)
	}
	rr.Call("set_session_name", map[string]any{"name": "RPC test"})
	ctx := context.Background()
	if err := rr.C.SetHostTools(ctx, rpcclient.Tool{
		Name: "echo_host", Description: "Echo a value from the host",
		Parameters: map[string]any{"type": "object", "properties": map[string]any{"message": map[string]any{"type": "string"}}, "required": []string{"message"}},
		Run: func(_ context.Context, args map[string]any, update func(rpcclient.ToolResult)) (rpcclient.ToolResult, error) {
			if args["message"] == "fail" {
				return rpcclient.ToolResult{}, fmt.Errorf("the host cannot echo that")
			}
			return rpcclient.TextResult(fmt.Sprintf("echo: %v", args["message"])), nil
		},
	}); err != nil {
		t.Fatal(err)
	}
	if schemes, err := rr.C.SetHostURISchemes(ctx, dbHost{}, rpcclient.URIScheme{Scheme: "DB", Writable: true}); err != nil || strings.Join(schemes, ",") != "db" {
		t.Fatalf("schemes %v %v", schemes, err)
	}

	// 1 and 2
	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "look up user 42 and echo hi"})
	end()
	end = rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "echo fail"})
	end()
	rr.Call("get_last_assistant_text", nil)

	// 3: steers while the first answer streams (one-at-a-time).
	end = rr.Expect("agent_end")
	update := rr.Expect("message_update")
	rr.Call("prompt", map[string]any{"message": "answer slowly"})
	update()
	if resp := rr.Call("prompt", map[string]any{"message": "no behavior"}); resp.Success {
		t.Fatal("a prompt without streamingBehavior was accepted while streaming")
	}
	rr.Call("steer", map[string]any{"message": "s1"})
	rr.Call("prompt", map[string]any{"message": "s2", "streamingBehavior": "steer"})
	end()

	// 4: follow-ups delivered together.
	rr.Call("set_follow_up_mode", map[string]any{"mode": "all"})
	end = rr.Expect("agent_end")
	update = rr.Expect("message_update")
	rr.Call("prompt", map[string]any{"message": "answer slowly again"})
	update()
	rr.Call("follow_up", map[string]any{"message": "f1"})
	rr.Call("prompt", map[string]any{"message": "f2", "streamingBehavior": "followUp"})
	end()

	// 5: the other two queue modes.
	rr.Call("set_steering_mode", map[string]any{"mode": "all"})
	end = rr.Expect("agent_end")
	update = rr.Expect("message_update")
	rr.Call("prompt", map[string]any{"message": "answer slowly a third time"})
	update()
	rr.Call("steer", map[string]any{"message": "s3"})
	rr.Call("steer", map[string]any{"message": "s4"})
	end()
	rr.Call("set_follow_up_mode", map[string]any{"mode": "one-at-a-time"})
	end = rr.Expect("agent_end")
	update = rr.Expect("message_update")
	rr.Call("prompt", map[string]any{"message": "answer slowly a fourth time"})
	update()
	rr.Call("follow_up", map[string]any{"message": "f3"})
	rr.Call("follow_up", map[string]any{"message": "f4"})
	end()

	// 6: abort mid-stream.
	update = rr.Expect("message_update")
	bothIn := make(chan struct{})
	var once sync.Once
	stopWatching := rr.C.OnEvent(func(f rpcclient.Frame) {
		if f.Type == "message_update" && bytes.Contains(f.Raw, []byte("this nev")) {
			once.Do(func() { close(bothIn) })
		}
	})
	rr.Call("prompt", map[string]any{"message": "stall"})
	update()
	testwait.Recv(t, "both deltas (the stream then stalls)", bothIn)
	stopWatching()
	rr.Call("abort", nil)

	rr.Call("get_messages", nil)
	rr.Call("get_session_stats", nil)
	rr.Call("get_branch_messages", nil)
	rr.Call("set_steering_mode", map[string]any{"mode": "sideways"})
	for _, line := range []string{`{not json`, `[1,2]`, `{"id":"x1","type":"frobnicate"}`} {
		resp := rr.Expect("response")
		rr.Raw(line)
		resp()
	}
	rr.Raw(`{"type":"host_tool_result","id":"nobody-asked","result":{"content":[]}}`)
	rr.Call("get_state", nil)

	rr.Stdin.Close()
	select {
	case code := <-rr.Exit:
		if code != 0 {
			t.Fatalf("exit %d after EOF", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("gopi did not exit after stdin closed")
	}
	<-rr.C.Done()

	golden.Check(t, transcript, rr.Transcript())
	// The session holds the conversation.
	files := r.SessionFiles()
	if len(files) != 1 {
		t.Fatalf("session files %v", files)
	}
	data, _ := os.ReadFile(files[0])
	for _, want := range []string{`"title":"RPC test"`, "about f1 and f2", "about s3 and s4", "about f4", `"stopReason":"aborted"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("session lacks %s", want)
		}
	}
}

// The ask tool goes through the extension UI sub-protocol.
func TestRPCAskThroughUI(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("ask", map[string]any{"questions": []any{map[string]any{"id": "db", "question": "Which database?", "options": []any{map[string]any{"label": "Postgres"}, map[string]any{"label": "SQLite"}}}}})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Postgres it is.")}},
	)
	rr := startRPC(t, r)
	var asked rpcclient.UIRequest
	rr.C.OnUI(func(req rpcclient.UIRequest) rpcclient.UIAnswer {
		asked = req
		v := "Postgres"
		return rpcclient.UIAnswer{Value: &v}
	})
	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "pick a database"})
	end()
	if asked.Method != "select" || asked.Title != "Which database?" || len(asked.Options) != 3 || asked.Timeout != 30000 {
		t.Fatalf("dialog %+v", asked)
	}
	msgs := agentrig.MustMarshal(t, r.RequestMessages(1))
	if !strings.Contains(msgs, "User selected: Postgres") {
		t.Fatalf("the answer did not reach the model: %s", msgs)
	}
	rr.Stdin.Close()
	<-rr.Exit
}

// askTurns is a run whose model asks which database to use (SQLite
// recommended), then answers.
func askTurns() []mockllm.Turn {
	return []mockllm.Turn{
		{Blocks: []mockllm.Block{agentrig.ToolCall("ask", map[string]any{"questions": []any{map[string]any{"id": "db", "question": "Which database?", "options": []any{map[string]any{"label": "Postgres"}, map[string]any{"label": "SQLite"}}, "recommended": 1}}})}},
		{Blocks: []mockllm.Block{text("Done.")}},
	}
}

// A question the host dismisses ({"cancelled":true}) is not a timeout: the
// ask call fails with the cancel text and the run ends there, without
// another model request, even though ask.timeout is set (30 s by default).
func TestRPCAskDismissed(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t, askTurns()...)
	rr := startRPC(t, r)
	rr.C.OnUI(func(rpcclient.UIRequest) rpcclient.UIAnswer { return rpcclient.UIAnswer{Cancelled: true} })
	toolEnd := rr.Expect("tool_execution_end")
	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "pick a database"})
	var res struct {
		ToolName string `json:"toolName"`
		IsError  bool   `json:"isError"`
		Result   struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := toolEnd().Decode(&res); err != nil {
		t.Fatal(err)
	}
	if res.ToolName != "ask" || !res.IsError || len(res.Result.Content) != 1 || res.Result.Content[0].Text != "Ask tool was cancelled by the user" {
		t.Fatalf("ask result %+v", res)
	}
	end()
	if n := len(r.Srv.Requests()); n != 1 {
		t.Fatalf("%d model requests; the dismissal should have ended the run after the first", n)
	}
	rr.Stdin.Close()
	<-rr.Exit
}

// Only a timeout takes the recommended option: the host's own (cancelled
// with timedOut) and gopi's (ask.timeout passes with no answer).
func TestRPCAskTimedOut(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ui   rpcclient.UIHandler
	}{
		{"host timer", func(rpcclient.UIRequest) rpcclient.UIAnswer {
			return rpcclient.UIAnswer{Cancelled: true, TimedOut: true}
		}},
		{"ask.timeout", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newAgentRig(t, askTurns()...)
			if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("ask:\n  timeout: 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			rr := startRPC(t, r)
			if tc.ui != nil {
				rr.C.OnUI(tc.ui)
			}
			end := rr.Expect("agent_end")
			rr.Call("prompt", map[string]any{"message": "pick a database"})
			end()
			if msgs := agentrig.MustMarshal(t, r.RequestMessages(1)); !strings.Contains(msgs, "User selected: SQLite") {
				t.Fatalf("the recommended option did not reach the model: %s", msgs)
			}
			rr.Stdin.Close()
			<-rr.Exit
		})
	}
}

// set_todos takes the spec's payload and answers with the normalised plan
// (ids kept, missing ones assigned after the highest, missing statuses
// pending); an unknown status is refused and leaves the plan as it was;
// get_state and a resumed session show the same plan, ids included.
func TestRPCSetTodos(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("Noted.")}})
	rr := startRPC(t, r)
	todos := func(resp *rpcclient.Response) string {
		t.Helper()
		var d struct {
			TodoPhases json.RawMessage `json:"todoPhases"`
		}
		if !resp.Success || json.Unmarshal(resp.Data, &d) != nil {
			t.Fatalf("%+v", resp)
		}
		return string(d.TodoPhases)
	}
	spec := `[{"id":"phase-1","name":"Evaluation","tasks":[{"id":"task-1","content":"Map the read tool surface","status":"in_progress"},{"id":"task-2","content":"Exercise edit operations","status":"pending"}]}]`
	var phases []any
	if err := json.Unmarshal([]byte(spec), &phases); err != nil {
		t.Fatal(err)
	}
	if got := todos(rr.Call("set_todos", map[string]any{"phases": phases})); got != spec {
		t.Fatalf("set_todos answered %s", got)
	}
	next := []any{map[string]any{"name": "Next", "tasks": []any{map[string]any{"content": "x"}, map[string]any{"content": "y", "status": "completed"}}}, phases[0]}
	want := `[{"id":"phase-2","name":"Next","tasks":[{"id":"task-3","content":"x","status":"pending"},{"id":"task-4","content":"y","status":"completed"}]},` + spec[1:]
	if got := todos(rr.Call("set_todos", map[string]any{"phases": next})); got != want {
		t.Fatalf("set_todos answered %s\nwant %s", got, want)
	}
	bad := []any{map[string]any{"name": "Bad", "tasks": []any{map[string]any{"content": "z", "status": "someday"}}}}
	if resp := rr.Call("set_todos", map[string]any{"phases": bad}); resp.Success || !strings.Contains(resp.Error, `unknown status "someday"`) {
		t.Fatalf("unknown status: %+v", resp)
	}
	if got := todos(rr.Call("get_state", nil)); got != want {
		t.Fatalf("get_state has %s", got)
	}
	// A session is written once the model has answered.
	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "here is the plan"})
	end()
	rr.Stdin.Close()
	if code := <-rr.Exit; code != 0 {
		t.Fatal(code)
	}
	rr = startRPC(t, r, "--continue")
	if got := todos(rr.Call("get_state", nil)); got != want {
		t.Fatalf("after resume get_state has %s", got)
	}
	rr.Stdin.Close()
	<-rr.Exit
}

// Aborting a run cancels the host's tool call; closing stdin while a host
// call is pending still exits 0, promptly, and keeps the session.
func TestRPCHostToolCancelAndEOF(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("slow_host", map[string]any{})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("slow_host", map[string]any{})}},
	)
	rr := startRPC(t, r)
	started := make(chan struct{}, 2)
	cancelled := make(chan struct{}, 1)
	if err := rr.C.SetHostTools(context.Background(), rpcclient.Tool{Name: "slow_host", Description: "never finishes", Parameters: map[string]any{"type": "object"},
		Run: func(ctx context.Context, _ map[string]any, _ func(rpcclient.ToolResult)) (rpcclient.ToolResult, error) {
			started <- struct{}{}
			<-ctx.Done()
			cancelled <- struct{}{}
			return rpcclient.ToolResult{}, ctx.Err()
		}}); err != nil {
		t.Fatal(err)
	}
	cancelFrame := rr.Expect("host_tool_cancel")
	rr.Call("prompt", map[string]any{"message": "go"})
	<-started
	rr.Call("abort", nil)
	cancelFrame()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the host tool was not cancelled")
	}
	// A second call left pending when the host goes away.
	rr.Call("prompt", map[string]any{"message": "again"})
	<-started
	start := time.Now()
	rr.Stdin.Close()
	select {
	case code := <-rr.Exit:
		if code != 0 || time.Since(start) > 10*time.Second {
			t.Fatalf("exit %d after %s", code, time.Since(start))
		}
	case <-time.After(20 * time.Second):
		t.Fatal("gopi waited for a host that was gone")
	}
	files := r.SessionFiles()
	if len(files) != 1 {
		t.Fatalf("session files %v", files)
	}
	data, _ := os.ReadFile(files[0])
	if !strings.Contains(string(data), "RPC client disconnected") && !strings.Contains(string(data), "aborted") {
		t.Fatalf("the pending call's end is not in the session:\n%s", data)
	}
}

// A 10 MB line is read whole (here: a prompt carrying 10 MB of text).
func TestRPCLongLine(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("big")}})
	rr := startRPC(t, r)
	end := rr.Expect("agent_end")
	big := strings.Repeat("x", 10<<20)
	rr.Call("prompt", map[string]any{"message": big})
	end()
	if n := len(r.Srv.Requests()[0].Body); n < 10<<20 {
		t.Fatalf("request body %d bytes", n)
	}
	rr.Stdin.Close()
	<-rr.Exit
}

// Two prompts sent back to back, without waiting for the first one's
// acknowledgement, are handled in order: the first one runs and the
// second one finds it streaming (it has no streamingBehavior), so it
// fails with its own id. They used to race: either could run and the
// other fail after both were acknowledged.
func TestRPCPromptsKeepTheirOrder(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("answer to one")}, ChunkSize: 4, ChunkDelay: 30 * time.Millisecond})
	rr := startRPC(t, r)
	var mu sync.Mutex
	responses := map[string]rpcclient.Response{}
	rr.C.OnEvent(func(f rpcclient.Frame) {
		var resp rpcclient.Response
		if f.Type == "response" && f.Decode(&resp) == nil {
			mu.Lock()
			responses[resp.ID] = resp
			mu.Unlock()
		}
	})
	end := rr.Expect("agent_end")
	io.WriteString(rr.Stdin, `{"id":"p1","type":"prompt","message":"one"}`+"\n"+`{"id":"p2","type":"prompt","message":"two"}`+"\n")
	endFrame := end()
	// A get_state after both: its response comes after theirs.
	rr.Call("get_state", nil)
	mu.Lock()
	p1, p2 := responses["p1"], responses["p2"]
	mu.Unlock()
	if !p1.Success {
		t.Fatalf("the first prompt failed: %+v", p1)
	}
	if p2.Success || !strings.Contains(p2.Error, "streamingBehavior") {
		t.Fatalf("the second prompt was not refused as busy: %+v", p2)
	}
	if raw := string(endFrame.Raw); !strings.Contains(raw, `"text":"one"`) || strings.Contains(raw, `"text":"two"`) {
		t.Fatalf("the run is not the first prompt's: %s", raw)
	}
	rr.Stdin.Close()
	<-rr.Exit
}

// Every frame gopi writes is valid JSON in UTF-8, whatever the host sent:
// an id with invalid UTF-8 is echoed with U+FFFD (it used to be copied
// byte for byte), and an object whose "type" is not a string is reported
// as such (not as "a command must be a JSON object").
func TestRPCHostileLinesGetValidFrames(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t)
	rr := startRPC(t, r)
	for _, line := range []string{
		"{\"id\":\"bad\xff\",\"type\":\"get_last_assistant_text\"}",
		`{"id":"n","type":5}`,
	} {
		resp := rr.Expect("response")
		rr.Raw(line)
		resp()
	}
	rr.Call("get_last_assistant_text", nil)
	rr.Stdin.Close()
	<-rr.Exit
	lines := rr.Lines()
	var out []string
	for _, l := range lines {
		if frame, ok := strings.CutPrefix(l, "< "); ok {
			if !utf8.ValidString(frame) || !json.Valid([]byte(frame)) {
				t.Errorf("invalid frame: %q", frame)
			}
			out = append(out, frame)
		}
	}
	all := strings.Join(out, "\n")
	for _, want := range []string{
		`{"id":"bad` + "\uFFFD" + `","type":"response","command":"get_last_assistant_text","success":true`,
		`"command":"parse","success":false,"error":"Failed to parse command: \"type\" must be a string, got number"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no frame with %s in\n%s", want, all)
		}
	}
}

// new_session and switch_session end the run in progress, as omp's do
// (they used to fail with the prompt's busy message, which tells the host
// to send a steer or a follow-up); branch during a run fails with a
// message of its own.
func TestRPCSessionCommandsDuringARun(t *testing.T) {
	t.Parallel()
	stall := mockllm.Turn{Blocks: []mockllm.Block{text("this never ends")}, ChunkSize: 4, StallAfterDeltas: 2}
	r := newAgentRig(t, stall, stall)
	rr := startRPC(t, r)
	state := func() (file string, messages int) {
		var st struct {
			SessionFile  string `json:"sessionFile"`
			MessageCount int    `json:"messageCount"`
		}
		if err := json.Unmarshal(rr.Call("get_state", nil).Data, &st); err != nil {
			t.Fatal(err)
		}
		return st.SessionFile, st.MessageCount
	}
	first, _ := state()

	update := rr.Expect("message_update")
	rr.Call("prompt", map[string]any{"message": "one"})
	update()
	if resp := rr.Call("branch", map[string]any{"entryId": "whatever"}); resp.Success || !strings.Contains(resp.Error, "cannot branch while the agent is working") {
		t.Fatalf("branch during a run: %+v", resp)
	}
	end := rr.Expect("agent_end")
	if resp := rr.Call("new_session", nil); !resp.Success {
		t.Fatalf("new_session during a run: %+v", resp)
	}
	end()
	second, n := state()
	if second == first || n != 0 {
		t.Fatalf("after new_session: file %s (was %s), %d messages", second, first, n)
	}

	update = rr.Expect("message_update")
	rr.Call("prompt", map[string]any{"message": "two"})
	update()
	end = rr.Expect("agent_end")
	if resp := rr.Call("switch_session", map[string]any{"sessionPath": first}); !resp.Success {
		t.Fatalf("switch_session during a run: %+v", resp)
	}
	end()
	if file, n := state(); file != first || n != 2 {
		t.Fatalf("after switch_session: file %s, %d messages; want %s with the first run's 2", file, n, first)
	}
	rr.Stdin.Close()
	if code := <-rr.Exit; code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// A prompt, steer, follow_up or abort_and_prompt without "message" fails
// (it used to send the model an empty user message, or queue one).
func TestRPCPromptNeedsAMessage(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t)
	rr := startRPC(t, r)
	for _, typ := range []string{"prompt", "steer", "follow_up", "abort_and_prompt"} {
		resp := rr.Call(typ, nil)
		if resp.Success || !strings.Contains(resp.Error, `"message"`) {
			t.Errorf("%s without a message: %+v", typ, resp)
		}
	}
	var st struct {
		MessageCount       int `json:"messageCount"`
		QueuedMessageCount int `json:"queuedMessageCount"`
	}
	if err := json.Unmarshal(rr.Call("get_state", nil).Data, &st); err != nil {
		t.Fatal(err)
	}
	if st.MessageCount != 0 || st.QueuedMessageCount != 0 {
		t.Errorf("state after the refused commands: %+v", st)
	}
	rr.Stdin.Close()
	<-rr.Exit
	if n := len(r.Srv.Requests()); n != 0 {
		t.Errorf("%d model requests", n)
	}
}

// slowDB answers reads once release is closed.
type slowDB struct{ release chan struct{} }

func (h slowDB) Read(ctx context.Context, url string) (rpcclient.URIContent, error) {
	select {
	case <-h.release:
	case <-ctx.Done():
		return rpcclient.URIContent{}, ctx.Err()
	}
	return rpcclient.URIContent{Content: "id=42\n"}, nil
}

func (slowDB) Write(context.Context, string, string) error { return nil }

// An answer of the wrong kind (host_tool_result to a host_uri_request)
// is refused and the request keeps waiting for its real answer; it used
// to complete the read with empty content.
func TestRPCHostAnswerOfTheWrongKind(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("read", map[string]any{"path": "db://users/42"})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("done")}},
	)
	rr := startRPC(t, r)
	db := slowDB{release: make(chan struct{})}
	if _, err := rr.C.SetHostURISchemes(context.Background(), db, rpcclient.URIScheme{Scheme: "db"}); err != nil {
		t.Fatal(err)
	}
	req := rr.Expect("host_uri_request")
	end := rr.Expect("agent_end")
	rr.Call("prompt", map[string]any{"message": "read user 42"})
	var f struct {
		ID string `json:"id"`
	}
	if err := req().Decode(&f); err != nil {
		t.Fatal(err)
	}
	refused := rr.Expect("response")
	rr.Raw(`{"type":"host_tool_result","id":"` + f.ID + `","result":{"content":[{"type":"text","text":"wrong"}]}}`)
	var resp rpcclient.Response
	if err := refused().Decode(&resp); err != nil || resp.Success || !strings.Contains(resp.Error, "answer it with host_uri_result") {
		t.Fatalf("wrong-kind answer: %+v %v", resp, err)
	}
	close(db.release)
	end()
	msgs := agentrig.MustMarshal(t, r.RequestMessages(1))
	if !strings.Contains(msgs, "id=42") || strings.Contains(msgs, "wrong") {
		t.Fatalf("the read's result is not the host's answer: %s", msgs)
	}
	rr.Stdin.Close()
	<-rr.Exit
}

// Host tools must have a name providers accept and a description.
func TestRPCHostToolValidation(t *testing.T) {
	t.Parallel()
	rr := startRPC(t, newAgentRig(t))
	for _, tc := range []struct {
		tool map[string]any
		want string
	}{
		{map[string]any{"name": "has space", "description": "d"}, "letters, digits"},
		{map[string]any{"name": "ok_name"}, "description"},
	} {
		if r := rr.Call("set_host_tools", map[string]any{"tools": []any{tc.tool}}); r.Success || !strings.Contains(r.Error, tc.want) {
			t.Errorf("%v: %+v", tc.tool, r)
		}
	}
	rr.Stdin.Close()
	<-rr.Exit
}
