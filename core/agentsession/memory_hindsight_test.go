package agentsession

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
