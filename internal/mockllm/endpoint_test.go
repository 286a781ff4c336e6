package mockllm

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// An endpoint serves its script and, asked to stop once it is played,
// returns after the last answer, with the request recorded.
func TestEndpointServesUntilPlayed(t *testing.T) {
	t.Parallel()
	ep, err := Listen("127.0.0.1:0", Turn{Blocks: []Block{Text("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ep.URL(), "http://127.0.0.1:") {
		t.Fatalf("URL %q", ep.URL())
	}
	served := make(chan error, 1)
	go func() { served <- ep.Serve(context.Background(), true) }()
	resp, err := http.Post(ep.URL()+"/v1/chat/completions", "application/json", strings.NewReader(streamBody))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"content":"hi"`) {
		t.Errorf("stream:\n%s", body)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if n, left := len(ep.Server().Requests()), ep.Server().Remaining(); n != 1 || left != 0 {
		t.Fatalf("%d requests, %d turns left", n, left)
	}
}

// Serve returns when its context ends, even with turns left.
func TestEndpointStopsWithContext(t *testing.T) {
	t.Parallel()
	ep, err := Listen("127.0.0.1:0", Turn{Blocks: []Block{Text("never")}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ep.Serve(ctx, true); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := http.Get(ep.URL()); err == nil {
		t.Fatal("still serving after Serve returned")
	}
}
