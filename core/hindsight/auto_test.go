package hindsight

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
)

// modelsDouble answers the mental-model listing with its current text
// (which the test changes) and records retained items.
type modelsDouble struct {
	mu    sync.Mutex
	text  string
	lists int
	kept  chan Item
}

func newModelsDouble(t *testing.T) (*modelsDouble, *httptest.Server) {
	d := &modelsDouble{text: "v1", kept: make(chan Item, 8)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		defer d.mu.Unlock()
		switch r.URL.Path {
		case "/v1/default/banks/omp/mental-models":
			d.lists++
			fmt.Fprintf(w, `{"items":[{"id":"m","name":"M","content":%q}]}`, d.text)
		case "/v1/default/banks/omp/memories":
			var body struct{ Items []Item }
			_ = json.NewDecoder(r.Body).Decode(&body)
			for _, it := range body.Items {
				d.kept <- it
			}
			fmt.Fprint(w, `{}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return d, srv
}

// In last-turn mode the retained document is the last
// retainEveryNTurns+retainOverlapTurns turns under a fresh id; mental
// models older than their interval are loaded again after a run; Clear
// empties the session's blocks.
func TestAutoLastTurnAndRefresh(t *testing.T) {
	t.Parallel()
	d, srv := newModelsDouble(t)
	cfg := testConfig(srv.URL)
	cfg.Auto = config.HindsightAuto{Retain: true, RetainMode: "last-turn", RetainEveryN: 1, RetainOverlap: 1}
	cfg.Models.Enabled, cfg.Models.MaxChars, cfg.Models.Refresh = true, 16000, time.Hour
	a := NewAuto(NewBank(cfg, srv.Client(), "s1", nil))
	defer a.Close(context.Background())
	clock := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	a.mu.Lock()
	a.now = func() time.Time { return clock }
	a.mu.Unlock()
	a.BeforeRun(context.Background(), "", nil) // waits for the first load
	if !strings.Contains(a.Instructions(), "# M\nv1") {
		t.Fatalf("instructions %q", a.Instructions())
	}
	var hist []Message
	for i := 1; i <= 4; i++ {
		hist = append(hist, Message{"user", fmt.Sprintf("question %d", i)}, Message{"assistant", fmt.Sprintf("answer %d", i)})
	}
	d.mu.Lock()
	d.text = "v2"
	d.mu.Unlock()
	clock = clock.Add(2 * time.Hour)
	a.AfterRun(hist) // 4 user turns ≥ 2: retain; models an interval old: reload
	it := <-d.kept
	if strings.Contains(it.Content, "question 2") || !strings.Contains(it.Content, "question 3") || !strings.HasPrefix(it.DocumentID, "s1-") {
		t.Errorf("retained %+v", it)
	}
	a.wg.Wait()
	if !strings.Contains(a.Instructions(), "# M\nv2") {
		t.Errorf("not reloaded: %q", a.Instructions())
	}
	a.Clear()
	if a.Instructions() != instructions {
		t.Errorf("after Clear: %q", a.Instructions())
	}
}

// A server that ignores recall's max_tokens (500 memories of 1,000
// characters) must not blow the system prompt up: the recalled block is
// bounded by the configured budget, whole memories first.
func TestAutoRecallBounded(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("m", 1000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/default/banks/omp/memories/recall" {
			http.NotFound(w, r)
			return
		}
		var res []Memory
		for i := range 500 {
			res = append(res, Memory{Text: fmt.Sprintf("memory %d %s", i, big)})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"results": res})
	}))
	defer srv.Close()
	cfg := testConfig(srv.URL)
	cfg.APIToken = ""
	cfg.Auto = config.HindsightAuto{Recall: true}
	a := NewAuto(NewBank(cfg, srv.Client(), "s1", nil))
	defer a.Close(context.Background())
	if !a.BeforeRun(context.Background(), "what do you know?", nil) {
		t.Fatal("nothing recalled")
	}
	got := a.Instructions()
	if limit := len(instructions) + recallCharsPerToken*cfg.RecallMax + 1000; len(got) > limit {
		t.Fatalf("instructions of %d characters (bound %d)", len(got), limit)
	}
	if !strings.Contains(got, "memory 0 ") || !strings.Contains(got, "more memories left out") {
		t.Fatalf("instructions %q…", got[:min(len(got), 2000)])
	}
}

// An automatic retain the server refuses is reported like a failed
// retain of the tool's queue (it was dropped without a word), and it is
// tried again after the next run.
func TestAutoRetainFailureReported(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	fail, posts := true, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == "/v1/default/banks/omp/memories" {
			posts++
			if fail {
				http.Error(w, `{"detail":"disk full"}`, http.StatusInternalServerError)
				return
			}
		}
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	cfg := testConfig(srv.URL)
	cfg.APIToken = ""
	cfg.Auto = config.HindsightAuto{Retain: true, RetainEveryN: 1}
	errs := make(chan error, 4)
	a := NewAuto(NewBank(cfg, srv.Client(), "s1", func(err error) { errs <- err }))
	defer a.Close(context.Background())
	hist := []Message{{"user", "remember that the build uses make"}, {"assistant", "noted, the build uses make"}}
	a.AfterRun(hist)
	select {
	case err := <-errs:
		if !strings.Contains(err.Error(), "disk full") {
			t.Fatalf("reported %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the failed retain was not reported")
	}
	a.wg.Wait()
	mu.Lock()
	fail = false
	mu.Unlock()
	a.AfterRun(hist)
	a.wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if posts != 2 {
		t.Fatalf("%d retains sent, want the failed one tried again", posts)
	}
}

// A retain that comes due while another is still being written waits for
// it and is then written (it used to be skipped: the last turn of a
// conversation after /new, with no run after it, was never retained), and
// each is written under the id its conversation had when it came due (a
// /new before the write began used to file the old one under the new id).
func TestAutoRetainDueWhileWritingIsWritten(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	kept := make(chan Item, 8)
	first := true
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/default/banks/omp/memories" {
			http.NotFound(w, r)
			return
		}
		var body struct{ Items []Item }
		_ = json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		stall := first
		first = false
		mu.Unlock()
		if stall {
			<-release // the first retain is still being written
		}
		for _, it := range body.Items {
			kept <- it
		}
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	cfg := testConfig(srv.URL)
	cfg.Auto = config.HindsightAuto{Retain: true, RetainMode: "full-session", RetainEveryN: 1}
	a := NewAuto(NewBank(cfg, srv.Client(), "s1", nil))
	defer a.Close(context.Background())
	a.AfterRun([]Message{{"user", "one"}, {"assistant", "1"}})
	for { // wait until the first retain is in flight
		a.mu.Lock()
		busy := a.retaining
		a.mu.Unlock()
		if busy {
			break
		}
		time.Sleep(time.Millisecond)
	}
	a.NewSession("s2")
	a.AfterRun([]Message{{"user", "two"}, {"assistant", "2"}})
	close(release)
	var got []string
	for len(got) < 2 {
		select {
		case it := <-kept:
			got = append(got, it.DocumentID+": "+it.Content)
		case <-time.After(10 * time.Second):
			t.Fatalf("retained %q; the retain due during the first was not written", got)
		}
	}
	// Each under the id of its own conversation: the first came due
	// before /new, though it was written after.
	if !strings.HasPrefix(got[0], "s1: ") || !strings.Contains(got[0], "one") || !strings.HasPrefix(got[1], "s2: ") || !strings.Contains(got[1], "two") {
		t.Errorf("retained %q, want the first conversation under s1, then the second under s2", got)
	}
}
