package rpc_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/modes/rpc"
)

// unsafeFrames are the commands the fuzz target never sends: they run
// shell commands, read or write paths the frame names, or start model
// runs in the background (whose frames would arrive at any time).
var unsafeFrames = map[string]bool{
	"bash": true, "export_html": true, "switch_session": true, "new_session": true,
	"prompt": true, "steer": true, "follow_up": true, "abort_and_prompt": true,
	"compact": true, "handoff": true,
}

// FuzzFrame sends arbitrary lines to a running RPC server (rpc.Run over
// pipes, a real session in memory whose model answers "ok") and checks
// the frames it sends back: each one JSON object with a type; a line that
// is not a JSON object with a type gets one failure response for the
// "parse" command; a command gets exactly one response naming it, which
// echoes the line's id (an unknown command's carries none, as omp's
// does); host answers and dialog answers get at most one.
// The server keeps serving: after each input a command with a fresh id
// (get_login_providers, which costs nothing) is answered.
func FuzzFrame(f *testing.F) {
	for _, s := range []string{
		`{"id":"1","type":"get_state"}`,
		`{"type":"set_thinking_level","level":"high","id":7}`,
		`{"type":"set_model","provider":"mock","modelId":"mock-model"}`,
		`{"type":"set_todos","phases":[{"name":"a","tasks":[{"content":"x","status":"pending"}]}]}` + "\n" + `{"type":"get_messages"}`,
		`{"type":"set_steering_mode","mode":"all"}` + "\n" + `{"type":"get_session_stats","id":null}`,
		`{"type":"host_tool_result","id":"h1","toolCallId":"nope","result":{"content":[]}}`,
		`{"type":"extension_ui_response","id":"u1","value":"x"}`,
		`{"type":"get_tree","filter":"all"}`, `{"type":"set_label","entryId":"zz","label":"l"}`,
		`{"type":"branch","entryId":"x"}`, `{"type":"navigate_tree","entryId":"x"}`,
		`{"type":"get_last_assistant_text"}`, `{"type":"cycle_model"}`, `{"type":"abort"}`,
		`{"type":"nope"}`, `{"id":{"a":[1,2]},"type":"get_state"}`, `[1]`, `"x"`, `{}`, `{"type":1}`,
		`{"type":"get_state"} trailing`, `{"type":"set_session_name","name":"  n  "}`,
		"{\"id\":\"\xff\",\"type\":\"get_state\"}", `{"TYPE":"get_state"}`, "{\"type\":\"get_state\"}\r\n\n  \n",
	} {
		f.Add(s)
	}
	root := f.TempDir()
	h, err := startFuzzServer(filepath.Join(root, "0"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { h.stop() })
	n := 0
	f.Fuzz(func(t *testing.T, in string) {
		n++
		// Commands such as set_label and set_todos add entries, and a
		// long fuzzing run made the session so large that get_tree and
		// get_messages slowed it to a crawl: a fresh server every
		// fuzzServerLife inputs keeps each execution as cheap as the first.
		if n%fuzzServerLife == 0 {
			h.stop()
			if h, err = startFuzzServer(filepath.Join(root, strconv.Itoa(n))); err != nil {
				t.Fatal(err)
			}
		}
		lines := strings.Split(in, "\n")
		if len(lines) > 8 {
			lines = lines[:8]
		}
		var sent []string
		for _, l := range lines {
			l = strings.TrimRight(l, "\r")
			if strings.TrimSpace(l) == "" {
				continue
			}
			var head struct {
				Type string `json:"type"`
			}
			if json.Unmarshal([]byte(l), &head) == nil && unsafeFrames[head.Type] {
				continue
			}
			sent = append(sent, l)
		}
		syncID := fmt.Sprintf("__sync_%d", n)
		frames := h.exchange(t, sent, syncID)
		checkFrames(t, sent, frames)
	})
}

// fuzzServerLife is how many inputs one server of FuzzFrame serves.
const fuzzServerLife = 500

// fuzzServer is rpc.Run serving a session over pipes.
type fuzzServer struct {
	in   io.WriteCloser
	out  *bufio.Reader
	stop func() // ends the server and removes its directory
}

// startFuzzServer starts rpc.Run on a new in-memory session whose
// configuration lives under root.
func startFuzzServer(root string) (*fuzzServer, error) {
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	agentDir := filepath.Join(home, ".gopi", "agent")
	for _, d := range []string{agentDir, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	yml := "providers:\n  mock:\n    baseUrl: http://127.0.0.1:9\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n      - id: other-model\n"
	if err := os.WriteFile(filepath.Join(agentDir, "models.yml"), []byte(yml), 0o644); err != nil {
		return nil, err
	}
	cfg, err := config.Load(config.LoadOptions{Cwd: project, Home: home, Environ: []string{"HOME=" + home, "MOCK_KEY=x", "PI_NO_TITLE=1"}})
	if err != nil {
		return nil, err
	}
	reg, err := models.Load(models.OptionsFor(cfg))
	if err != nil {
		return nil, err
	}
	model, err := reg.Find("mock/mock-model")
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s, err := agentsession.New(ctx, agentsession.Options{
		Config: cfg, Cwd: project, Models: reg, Model: model, NoSession: true, NoMCP: true, NoSkills: true, NoRules: true,
		NoTitle: true, ToolNames: []string{}, Stream: answerOK,
	})
	if err != nil {
		cancel()
		return nil, err
	}
	// One exchange, so that the session has entries to list and branch from.
	if err := s.Prompt(ctx, "hello", agentsession.PromptOptions{}); err != nil {
		cancel()
		return nil, err
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		rpc.Run(ctx, s, rpc.Options{In: inR, Out: outW, StopGrace: time.Second})
		outW.Close()
	}()
	h := &fuzzServer{in: inW, out: bufio.NewReaderSize(outR, 1<<16)}
	h.stop = func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		<-done
		cancel()
		_ = os.RemoveAll(root)
	}
	if line, err := h.out.ReadBytes('\n'); err != nil || !bytes.Contains(line, []byte(`"ready"`)) {
		h.stop()
		return nil, fmt.Errorf("no ready frame: %q %v", line, err)
	}
	return h, nil
}

// answerOK is the model: every request gets the text "ok".
func answerOK(ctx context.Context, req *ai.Request) *ai.Stream {
	em, st := ai.NewEmitter(req.Model)
	go func() {
		em.Start()
		i := em.StartText()
		em.TextDelta(i, "ok")
		em.EndText(i)
		em.SetStopReason(ai.StopReasonStop)
		em.Done(req.Model)
	}()
	return st
}

// exchange sends the lines and a get_login_providers with syncID, and
// returns the frames that came before its response.
func (h *fuzzServer) exchange(t *testing.T, lines []string, syncID string) []map[string]any {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString(`{"type":"get_login_providers","id":"` + syncID + `"}` + "\n")
	werr := make(chan error, 1)
	go func() {
		_, err := io.WriteString(h.in, b.String())
		werr <- err
	}()
	var frames []map[string]any
	for {
		line, err := h.out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("the server stopped after %q: %v", lines, err)
		}
		fr, ok := decodeJSON(line).(map[string]any)
		if !ok {
			t.Fatalf("frame %q is not a JSON object", line)
		}
		if typ, _ := fr["type"].(string); typ == "" {
			t.Fatalf("frame %q has no type", line)
		}
		if fr["type"] == "response" && fr["id"] == syncID {
			if fr["success"] != true {
				t.Fatalf("get_login_providers failed after %q: %s", lines, line)
			}
			break
		}
		frames = append(frames, fr)
	}
	if err := <-werr; err != nil {
		t.Fatalf("writing to the server: %v", err)
	}
	return frames
}

// checkFrames matches the responses, in order, to the lines sent.
func checkFrames(t *testing.T, sent []string, frames []map[string]any) {
	var resp []map[string]any
	for _, fr := range frames {
		if fr["type"] == "response" {
			resp = append(resp, fr)
		}
	}
	next := func(l string) map[string]any {
		if len(resp) == 0 {
			t.Fatalf("no response to %q (frames: %v)", l, frames)
		}
		r := resp[0]
		resp = resp[1:]
		if ok, _ := r["success"].(bool); !ok {
			if msg, _ := r["error"].(string); strings.TrimSpace(msg) == "" {
				t.Fatalf("failure response to %q without an error text: %v", l, r)
			}
		}
		return r
	}
	for _, l := range sent {
		var head struct {
			ID   json.RawMessage `json:"id"`
			Type string          `json:"type"`
		}
		if err := json.Unmarshal([]byte(l), &head); err != nil || head.Type == "" {
			r := next(l)
			if r["command"] != "parse" || r["success"] != false {
				t.Fatalf("%q: want a parse failure, got %v", l, r)
			}
			continue
		}
		switch head.Type {
		case "extension_ui_response":
			continue
		case "host_tool_result", "host_tool_update", "host_uri_result":
			if len(resp) > 0 && resp[0]["command"] == head.Type {
				if r := next(l); r["success"] != false {
					t.Fatalf("%q: an answer to no call succeeded: %v", l, r)
				}
			}
			continue
		}
		r := next(l)
		if r["command"] != head.Type {
			t.Fatalf("%q: the response names %v", l, r["command"])
		}
		want := decodeID(head.ID)
		if r["error"] == "Unknown command: "+head.Type {
			want = nil // as omp: an unknown command's response carries no id
		}
		if got := r["id"]; !reflect.DeepEqual(want, got) {
			t.Fatalf("%q: the response's id is %#v, want %#v", l, got, want)
		}
	}
	if len(resp) > 0 {
		t.Fatalf("responses to nothing sent: %v (sent %q)", resp, sent)
	}
}

// decodeID is an id as a host decodes it (nil when absent).
func decodeID(raw json.RawMessage) any {
	if raw == nil {
		return nil
	}
	return decodeJSON(raw)
}

// decodeJSON decodes one JSON value, numbers as written (nil when it is
// not one JSON value).
func decodeJSON(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.InputOffset() != int64(len(bytes.TrimRight(b, " \t\r\n"))) {
		return nil
	}
	return v
}
