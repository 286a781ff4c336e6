package hindsight

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
)

// double is a Hindsight server double: it records retained batches and
// answers recall and reflect; stall makes every answer wait for release.
type double struct {
	batches chan []Item
	bodies  chan map[string]any
	release chan struct{}
	stall   bool
}

func newDouble(t *testing.T, stall bool) (*double, *httptest.Server) {
	d := &double{batches: make(chan []Item, 8), bodies: make(chan map[string]any, 8), release: make(chan struct{}), stall: stall}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d.stall {
			select {
			case <-d.release:
			case <-r.Context().Done():
				return
			}
		}
		if r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, `{"detail":"bad token"}`, http.StatusUnauthorized)
			return
		}
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		switch r.URL.Path {
		case "/v1/default/banks/omp/memories":
			var in struct{ Items []Item }
			b, _ := json.Marshal(body)
			_ = json.Unmarshal(b, &in)
			d.batches <- in.Items
			fmt.Fprint(w, `{"success":true}`)
		case "/v1/default/banks/omp/memories/recall":
			d.bodies <- body
			fmt.Fprint(w, `{"results":[{"text":"tests run with make test","type":"world","mentioned_at":"2026-11-01"},{"text":"prefers tabs"}]}`)
		case "/v1/default/banks/omp/reflect":
			d.bodies <- body
			fmt.Fprint(w, `{"text":"  Use make test.  "}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() { close(d.release); srv.Close() })
	return d, srv
}

func testConfig(url string) config.Hindsight {
	return config.Hindsight{Enabled: true, APIURL: url, APIToken: "tok", BankID: "omp", RetainTags: []string{"project:p"},
		RecallTags: []string{"project:p"}, RetainCtx: "omp", RecallBudget: "mid", RecallMax: 1024, RecallTypes: []string{"world", "experience"}}
}

func TestRecallReflect(t *testing.T) {
	t.Parallel()
	d, srv := newDouble(t, false)
	b := NewBank(testConfig(srv.URL), srv.Client(), "s1", nil)
	b.now = func() time.Time { return time.Date(2026, 11, 30, 4, 5, 0, 0, time.UTC) }
	defer b.Close(context.Background())
	text, err := b.Recall(context.Background(), "how are tests run")
	want := "Found 2 relevant memories (as of 2026-11-30 04:05 UTC):\n\n- tests run with make test [world] (2026-11-01)\n\n- prefers tabs"
	if err != nil || text != want {
		t.Fatalf("recall = %q, %v", text, err)
	}
	body := <-d.bodies
	if body["budget"] != "mid" || body["max_tokens"] != 1024.0 || body["tags_match"] != "any" || body["query"] != "how are tests run" {
		t.Errorf("recall body %v", body)
	}
	if text, err := b.Reflect(context.Background(), "q", "ctx"); err != nil || text != "Use make test." {
		t.Fatalf("reflect = %q, %v", text, err)
	}
	if body := <-d.bodies; body["context"] != "ctx" || body["budget"] != "mid" {
		t.Errorf("reflect body %v", body)
	}
	bad := testConfig(srv.URL)
	bad.APIToken = "wrong"
	if _, err := NewBank(bad, srv.Client(), "s1", nil).Recall(context.Background(), "x"); err == nil || !strings.Contains(err.Error(), "HTTP 401): bad token") {
		t.Errorf("bad token: %v", err)
	}
}

// Sixteen memories are written at once in one batch, with the session id,
// the default context and the project tag; fewer wait for the interval;
// Close writes what is left.
func TestRetainQueue(t *testing.T) {
	t.Parallel()
	d, srv := newDouble(t, false)
	b := NewBank(testConfig(srv.URL), srv.Client(), "s1", nil)
	b.SetInterval(time.Hour)
	items := make([]Item, BatchSize)
	for i := range items {
		items[i] = Item{Content: fmt.Sprintf("fact %d", i)}
	}
	items[0].Context = "own"
	if err := b.Retain(items); err != nil {
		t.Fatal(err)
	}
	batch := <-d.batches
	if len(batch) != BatchSize || batch[0].Context != "own" || batch[1].Context != "omp" || batch[1].Metadata["session_id"] != "s1" || batch[1].Tags[0] != "project:p" {
		t.Fatalf("batch %+v", batch)
	}
	_ = b.Retain([]Item{{Content: "one more"}})
	b.Close(context.Background())
	if batch := <-d.batches; len(batch) != 1 || batch[0].Content != "one more" {
		t.Fatalf("on close %+v", batch)
	}
	if err := b.Retain([]Item{{Content: "late"}}); err != ErrClosed {
		t.Errorf("after close: %v", err)
	}

	// A small batch is written once the interval has passed.
	b2 := NewBank(testConfig(srv.URL), srv.Client(), "s2", nil)
	b2.SetInterval(time.Millisecond)
	_ = b2.Retain([]Item{{Content: "soon"}})
	if batch := <-d.batches; len(batch) != 1 || batch[0].Content != "soon" {
		t.Fatalf("interval %+v", batch)
	}
	b2.Close(context.Background())
}

// A server that never answers fails recall with a message naming the
// server, and a retain write with a report to onError; Close does not
// hang on it.
func TestStalledServer(t *testing.T) {
	t.Parallel()
	_, srv := newDouble(t, true)
	errs := make(chan error, 1)
	b := NewBank(testConfig(srv.URL), srv.Client(), "s1", func(err error) { errs <- err })
	b.SetTimeout(50 * time.Millisecond)
	if _, err := b.Recall(context.Background(), "x"); err == nil || !strings.Contains(err.Error(), "did not answer within") {
		t.Fatalf("recall: %v", err)
	}
	_ = b.Retain([]Item{{Content: "x"}})
	b.Flush()
	if err := <-errs; !strings.Contains(err.Error(), "1 memories were not retained") {
		t.Errorf("retain: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b.Close(ctx)
}

// A mental-model id or bank id of "." or ".." would make a dot segment
// of the request's path, which servers and proxies resolve: "/memory mm
// delete .." would have asked to DELETE the bank itself. They are
// refused before any request.
func TestDotSegmentIDsRefused(t *testing.T) {
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.Method+" "+r.URL.Path)
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL}
	ctx := context.Background()
	for _, id := range []string{"..", ".", ""} {
		if _, err := c.DeleteModel(ctx, "omp", id); err == nil || !strings.Contains(err.Error(), "mental model id") {
			t.Errorf("DeleteModel(%q): %v", id, err)
		}
		if err := c.RefreshModel(ctx, "omp", id); err == nil {
			t.Errorf("RefreshModel(%q) went through", id)
		}
		if _, err := c.GetModel(ctx, "omp", id); err == nil {
			t.Errorf("GetModel(%q) went through", id)
		}
		if _, err := c.ModelHistory(ctx, "omp", id); err == nil {
			t.Errorf("ModelHistory(%q) went through", id)
		}
	}
	if _, err := c.Recall(ctx, "..", "q", Query{}); err == nil || !strings.Contains(err.Error(), "bank id") {
		t.Errorf("bank ..: %v", err)
	}
	if len(paths) != 0 {
		t.Fatalf("requests sent: %q", paths)
	}
	if _, err := c.DeleteModel(ctx, "omp", "a.b"); err != nil || len(paths) != 1 || paths[0] != "DELETE /v1/default/banks/omp/mental-models/a.b" {
		t.Fatalf("an ordinary id: %v %q", err, paths)
	}
}
