package websearch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	engine "github.com/gopi-agent/gopi/core/websearch"
)

// The parameters are the ones omp 14.9.9 sends for web_search
// (testdata/omp-parameters.json, recorded; less the _i intent field the
// agent adds to every tool).
func TestDefinitionSchema(t *testing.T) {
	data, err := os.ReadFile("testdata/omp-parameters.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string]any
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	delete(ref["properties"].(map[string]any), "_i")
	ref["required"] = []string{"query"}
	want, _ := json.Marshal(ref)
	gotRaw, _ := json.Marshal(New(tool.NewEnv(t.TempDir())).Definition().Parameters)
	var g any
	_ = json.Unmarshal(gotRaw, &g)
	got, _ := json.Marshal(g)
	if string(got) != string(want) {
		t.Errorf("schema\n%s\nwant\n%s", got, want)
	}
}

// web_search is offered with web_search.enabled and a configured provider.
func TestAvailable(t *testing.T) {
	env := tool.NewEnv(t.TempDir())
	if Available(env) {
		t.Error("offered with no provider configured")
	}
	env.Settings.WebSearch.Brave = "key"
	if !Available(env) {
		t.Error("not offered with BRAVE_API_KEY")
	}
	env.Settings.WebSearch.Enabled = false
	if Available(env) {
		t.Error("offered with web_search.enabled off")
	}
}

// A call returns the rendered sources; a failure is a normal result whose
// text starts with "Error:", as in omp.
func TestExecute(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"results":[{"title":"T","url":"https://example.org/","content":"S"}]}`))
	}))
	defer srv.Close()
	s := engine.New(config.WebSearch{Enabled: true, SearXNG: config.SearXNG{Endpoint: srv.URL}}, engine.Options{})
	res, err := tool.Run(context.Background(), NewWith(s), json.RawMessage(`{"query":"q","limit":2,"recency":"day"}`), nil)
	if err != nil || res.IsError || res.FirstText() != "[1] T\n    https://example.org/\n    S" {
		t.Fatalf("%v %+v", err, res)
	}
	status = http.StatusUnauthorized
	res, _ = tool.Run(context.Background(), NewWith(s), json.RawMessage(`{"query":"q"}`), nil)
	if res.IsError || !strings.HasPrefix(res.FirstText(), "Error: SearXNG authorization failed (401). Check SEARXNG_TOKEN") {
		t.Fatalf("%+v", res)
	}
	if d := res.Details.(*Details); d.Error == "" || d.Response.Provider != engine.None {
		t.Fatalf("details %+v", d)
	}
	res, _ = tool.Run(context.Background(), NewWith(s), json.RawMessage(`{"query":"q","recency":"hour"}`), nil)
	if !res.IsError {
		t.Fatalf("a recency outside the enum was accepted: %+v", res)
	}
	// A blank query is refused before any provider is asked.
	asked := 0
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { asked++ })
	for _, q := range []string{`""`, `"  \t\n "`} {
		res, _ = tool.Run(context.Background(), NewWith(s), json.RawMessage(`{"query":`+q+`}`), nil)
		if !res.IsError || res.FirstText() != "query is empty: give the words to search the web for" {
			t.Errorf("query %s: %+v", q, res)
		}
	}
	if asked != 0 {
		t.Errorf("the provider was asked %d times", asked)
	}
}
