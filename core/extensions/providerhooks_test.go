package extensions

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// A before_provider_request handler that throws, or answers something
// that is not an object, is reported and skipped; the request goes out
// with the other handlers' changes instead of failing the run.
func TestBeforeProviderRequestFailuresAreSkipped(t *testing.T) {
	p := writeExt(t, t.TempDir(), "req.js", `export default function (pi) {
		pi.on("before_provider_request", (e) => Object.assign({}, e.payload, { first: true }));
		pi.on("before_provider_request", () => { throw new Error("the policy server is down"); });
		pi.on("before_provider_request", () => 42);
		pi.on("before_provider_request", (e) => Object.assign({}, e.payload, { last: e.payload.first === true }));
	}`)
	var mu sync.Mutex
	var reported []LoadError
	r := Load(context.Background(), []Entry{{Path: p}}, Options{OnError: func(e LoadError) { mu.Lock(); reported = append(reported, e); mu.Unlock() }})
	defer r.Close()
	if errs := r.Errors(); len(errs) != 0 {
		t.Fatal(errs)
	}
	req := &ai.ProviderRequest{RequestID: "req_1", Payload: []byte(`{"model":"m"}`)}
	if err := r.Hooks()[0].BeforeProviderRequest(context.Background(), req); err != nil {
		t.Fatalf("the request would fail: %v", err)
	}
	if got := string(req.Payload); got != `{"model":"m","first":true,"last":true}` {
		t.Errorf("payload %s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 2 || reported[0].Event != "before_provider_request" || !strings.Contains(reported[0].Err, "the policy server is down") ||
		!strings.Contains(reported[1].Err, "the replacement payload must be an object, got 42") || reported[0].Path != p {
		t.Errorf("reported %+v", reported)
	}
}
