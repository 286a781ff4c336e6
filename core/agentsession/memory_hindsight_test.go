package agentsession

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// With memory.backend=hindsight the session offers recall, retain and
// reflect against the configured server: recall's memories come back to
// the model, retained items are written (with the session's project tag)
// when the session closes, before the 5 s interval.
func TestHindsightMemoryTools(t *testing.T) {
	t.Parallel()
	retained := make(chan string, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/default/banks/omp/memories/recall":
			fmt.Fprint(w, `{"results":[{"text":"the user deploys on Fridays","type":"world"}]}`)
		case "/v1/default/banks/omp/reflect":
			fmt.Fprint(w, `{"text":"Fridays."}`)
		case "/v1/default/banks/omp/memories":
			b, _ := json.Marshal(json.RawMessage(mustRead(r)))
			retained <- string(b)
			fmt.Fprint(w, `{}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	f := newFixture(t, keyEnv)
	f.settings("memory:\n  backend: hindsight\nhindsight:\n  apiUrl: " + srv.URL + "\n")
	f.script.add(
		callTool("c1", "recall", `{"query":"when does the user deploy"}`),
		callTool("c2", "reflect", `{"query":"deploy day?"}`),
		callTool("c3", "retain", `{"items":[{"content":"deploys need a green CI"}]}`),
		say("done"),
	)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	if err := s.Prompt(context.Background(), "go", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := f.script.requests()
	got := toolResultTexts(reqs[len(reqs)-1].Messages)
	if len(got) != 3 || !strings.Contains(got[0], "- the user deploys on Fridays [world]") || got[1] != "Fridays." || got[2] != "1 memory queued." {
		t.Fatalf("results = %q", got)
	}
	s.Close()
	body := <-retained
	if !strings.Contains(body, `"content":"deploys need a green CI"`) || !strings.Contains(body, `"tags":["project:project"]`) {
		t.Errorf("retained %s", body)
	}
}

func mustRead(r *http.Request) []byte {
	var m json.RawMessage
	_ = json.NewDecoder(r.Body).Decode(&m)
	return m
}

// Auto-recall runs once per conversation and its memories stay in the
// system prompt for the later runs; a new session (/new) recalls again,
// and the transcript retained for it carries the new session's id.
func TestHindsightAutoRecallOncePerConversation(t *testing.T) {
	t.Parallel()
	recalls := make(chan string, 8)
	retained := make(chan map[string]any, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		switch r.URL.Path {
		case "/v1/default/banks/omp/memories/recall":
			recalls <- fmt.Sprint(body["query"])
			fmt.Fprint(w, `{"results":[{"text":"prefers tabs"}]}`)
		case "/v1/default/banks/omp/memories":
			for _, it := range body["items"].([]any) {
				retained <- it.(map[string]any)
			}
			fmt.Fprint(w, `{}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	f := newFixture(t, keyEnv)
	f.settings("memory:\n  backend: hindsight\nhindsight:\n  apiUrl: " + srv.URL + "\n  retainEveryNTurns: 1\n  mentalModelsEnabled: false\n  recallContextTurns: 2\n")
	f.script.add(say("one"), say("two"), say("three"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	ctx := context.Background()
	for _, p := range []string{"first", "second"} {
		if err := s.Prompt(ctx, p, PromptOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if len(recalls) != 1 || <-recalls != "first" {
		t.Fatalf("recalled %d times", len(recalls)+1)
	}
	reqs := f.script.requests()
	if !strings.Contains(reqs[1].SystemPrompt, "<memories>") || !strings.Contains(reqs[1].SystemPrompt, "- prefers tabs") {
		t.Errorf("the second run lost the memories:\n%s", reqs[1].SystemPrompt)
	}
	first := <-retained
	if _, err := s.Tree().New(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.Prompt(ctx, "third", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case q := <-recalls:
		if q != "third" {
			t.Errorf("recall after /new: %q", q)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no recall after /new")
	}
	var last map[string]any
	for last == nil || !strings.Contains(fmt.Sprint(last["content"]), "third") {
		select {
		case last = <-retained:
		case <-time.After(20 * time.Second):
			t.Fatal("the new session's transcript was not retained")
		}
	}
	id := s.Store().SessionID()
	if last["document_id"] != id || first["document_id"] == id || !strings.Contains(fmt.Sprint(last["content"]), "third") || strings.Contains(fmt.Sprint(last["content"]), "first") {
		t.Errorf("retained after /new: %v (first %v)", last, first)
	}
}
