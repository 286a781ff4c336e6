package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// hindsightDouble is a local stand-in for a Hindsight server: recall
// answers with one memory, the bank has one mental model with text (and
// records the ones created), retains are recorded. stall makes every
// answer wait until the test ends.
type hindsightDouble struct {
	srv   *httptest.Server
	mu    sync.Mutex
	calls []string         // "METHOD path" in order
	recal []map[string]any // recall bodies
	kept  []map[string]any // retained items
	made  []map[string]any // created mental models
}

func newHindsightDouble(t *testing.T, stall bool) *hindsightDouble {
	d := &hindsightDouble{}
	stop := make(chan struct{})
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if stall {
			select {
			case <-stop:
			case <-r.Context().Done():
			}
			return
		}
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		d.mu.Lock()
		defer d.mu.Unlock()
		d.calls = append(d.calls, r.Method+" "+r.URL.Path)
		const bank = "/v1/default/banks/omp"
		switch {
		case r.URL.Path == bank+"/memories/recall":
			d.recal = append(d.recal, body)
			fmt.Fprint(w, `{"results":[{"text":"the user's cat is called Tom","type":"world","mentioned_at":"2026-10-01"}]}`)
		case r.URL.Path == bank+"/memories":
			items, _ := body["items"].([]any)
			for _, it := range items {
				d.kept = append(d.kept, it.(map[string]any))
			}
			fmt.Fprint(w, `{"success":true}`)
		case r.URL.Path == bank+"/mental-models" && r.Method == "POST":
			d.made = append(d.made, body)
			fmt.Fprint(w, `{"operation_id":"op"}`)
		case r.URL.Path == bank+"/mental-models":
			fmt.Fprint(w, `{"items":[{"id":"user-preferences","name":"User Preferences","content":"Prefers short answers.","last_refreshed_at":"2026-11-01"}]}`)
		case r.URL.Path == bank+"/mental-models/user-preferences/history":
			fmt.Fprint(w, `[{"previous_content":"Prefers long answers.","changed_at":"2026-11-01T10:00:00Z"}]`)
		case strings.HasPrefix(r.URL.Path, bank+"/mental-models/"):
			fmt.Fprint(w, `{"id":"user-preferences","name":"User Preferences","content":"Prefers short answers."}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() { close(stop); d.srv.Close() })
	return d
}

func (d *hindsightDouble) snapshot() (calls []string, recalls, kept, made []map[string]any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.calls...), append([]map[string]any(nil), d.recal...), append([]map[string]any(nil), d.kept...), append([]map[string]any(nil), d.made...)
}

func (r *agentRig) useHindsight(url, extra string) {
	r.t.Helper()
	cfg := "memory:\n  backend: hindsight\nhindsight:\n  apiUrl: " + url + "\n" + extra
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte(cfg), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// With memory.backend=hindsight the backend works on its own: before the
// first run it recalls for the prompt and the model's request carries
// the memories in a <memories> block, with the bank's mental models in a
// <mental_models> block (the built-in ones it lacked created first); the
// transcript is retained at the third user turn (retainEveryNTurns), the
// blocks stripped from it.
func TestHindsightAutoRecallRetain(t *testing.T) {
	d := newHindsightDouble(t, false)
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{text("Noted.")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Tom it is. <memories>echoed block</memories>")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Done.")}},
	)
	r.useHindsight(d.srv.URL, "")
	for i, p := range []string{"what is my cat called?", "remind me again", "thanks"} {
		args := []string{"-p", "--model", "mock/mock-model", p}
		if i > 0 {
			args = []string{"-p", "-c", p}
		}
		if _, stderr, code := r.run("", args...); code != 0 {
			t.Fatalf("run %d: %d %s", i, code, stderr)
		}
		_, _, kept, _ := d.snapshot()
		if i < 2 && len(kept) > 0 {
			t.Fatalf("retained after %d turns: %v", i+1, kept)
		}
	}
	reqs := r.Srv.Requests()
	first := jsonText(reqs[0].Body)
	for _, want := range []string{"<memories>", "- the user's cat is called Tom [world] (2026-10-01)", "<mental_models>", "# User Preferences", "Prefers short answers.", "# Memory"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first request lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("first request: %s", first)
	}
	calls, recalls, kept, made := d.snapshot()
	if len(recalls) != 3 || recalls[0]["query"] != "what is my cat called?" || recalls[0]["budget"] != "mid" {
		t.Errorf("recalls %v", recalls) // one per process: each -p run is a session start
	}
	// the bank has user-preferences: only the two others are created (each run)
	if len(made) != 6 || made[0]["id"] != "project-conventions" || made[1]["id"] != "project-decisions" || fmt.Sprint(made[0]["tags"]) != "[project:"+filepath.Base(r.Project)+"]" {
		t.Errorf("seeded %v", made)
	}
	if len(kept) != 1 {
		t.Fatalf("retained %v (calls %v)", kept, calls)
	}
	doc := kept[0]["content"].(string)
	for _, want := range []string{"[role: user]\nwhat is my cat called?\n[user:end]", "[role: assistant]\nTom it is.\n[assistant:end]", "[role: user]\nthanks"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the retained transcript lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "echoed block") || kept[0]["document_id"] == "" || kept[0]["context"] != "omp" {
		t.Errorf("retained item %v", kept[0])
	}
}

// A memory server that never answers does not hold the run: the first
// turn waits 1.5 s for the mental models and the recall gives up after
// its own bound, and the run goes on without memories.
func TestHindsightStalledServer(t *testing.T) {
	d := newHindsightDouble(t, true)
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("fine")}})
	r.useHindsight(d.srv.URL, "")
	done := make(chan struct{})
	var out, stderr string
	var code int
	go func() {
		defer close(done)
		out, stderr, code = r.run("", "-p", "--model", "mock/mock-model", "hello")
	}()
	select {
	case <-done:
	case <-time.After(25 * time.Second): // the client's own bound is 30 s per request
		t.Fatal("the run waited for the stalled memory server")
	}
	if code != 0 || out != "fine\n" {
		t.Fatalf("exit %d %q %s", code, out, stderr)
	}
	if body := jsonText(r.Srv.Requests()[0].Body); strings.Contains(body, "<memories>\n") {
		t.Error("memories from nowhere")
	}
}

// jsonText undoes the JSON escapes of a request body that matter to the
// checks (angle brackets, new lines).
func jsonText(b []byte) string {
	return strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&", `\n`, "\n").Replace(string(b))
}

// TestTUIMemoryInTmux: /memory shows what the hindsight backend adds to
// the system prompt (the mental models from the start, the memories
// after the first prompt), mm list and show read the bank's models,
// enqueue writes the conversation to the bank and clear empties the
// session's memory.
func TestTUIMemoryInTmux(t *testing.T) {
	d := newHindsightDouble(t, false)
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("It is Tom.")}})
	r.useHindsight(d.srv.URL, "")
	x := startTmux(t, 120, 40, r.Project, r.Environ, "--no-title", "--model", "mock/mock-model")
	x.waitFor("Message gopi")
	x.typ("/memory bogus")
	x.keys("Enter")
	x.waitFor("Usage: /memory <view|clear|reset|enqueue|rebuild|mm …>")
	x.typ("what is my cat called?")
	x.keys("Enter")
	x.waitFor("It is Tom.")
	x.typ("/memory")
	x.keys("Enter")
	x.waitFor("Memory added to the system prompt")
	x.waitFor("the user's cat is called Tom")
	x.waitFor("Prefers short answers.")
	x.typ("/memory mm list")
	x.keys("Enter")
	x.waitFor("user-preferences: User Preferences (refreshed 2026-11-01)")
	x.typ("/memory mm show user-preferences")
	x.keys("Enter")
	x.waitFor("id: user-preferences")
	x.typ("/memory mm history user-preferences")
	x.keys("Enter")
	x.waitFor("History of User Preferences")
	x.waitFor("-Prefers long answers.")
	x.typ("/memory enqueue")
	x.keys("Enter")
	x.waitFor("Memory consolidation enqueued")
	if _, _, kept, _ := d.snapshot(); len(kept) != 1 || !strings.Contains(kept[0]["content"].(string), "[role: assistant]\nIt is Tom.") {
		t.Errorf("enqueue retained %v", kept)
	}
	x.typ("/memory clear")
	x.keys("Enter")
	x.waitFor("Memory cleared in this session")
}
