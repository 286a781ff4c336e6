package models

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/vertex"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// googleCloudRegistry loads a registry whose models.yml declares the three
// Google Cloud providers at base (as the catalogue would, with a local
// URL), with the given environment.
func googleCloudRegistry(t *testing.T, base string, vars map[string]string) *Registry {
	t.Helper()
	yml := fmt.Sprintf(`providers:
  google-vertex:
    baseUrl: %[1]s
    api: google-vertex
    models:
      - id: gemini-2.5-flash
  google-gemini-cli:
    baseUrl: %[1]s
    api: google-gemini-cli
    models:
      - id: gemini-2.5-pro
`, base)
	r, err := withConfig(t, yml, "", vars)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// adcFile writes authorized-user credentials whose token endpoint is a
// local server counting its exchanges.
func adcFile(t *testing.T) (path string, exchanges *atomic.Int32) {
	exchanges = new(atomic.Int32)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := exchanges.Add(1)
		if r.ParseForm() != nil || r.PostForm.Get("grant_type") != "refresh_token" {
			http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":"ya29.adc-%d","expires_in":3600}`, n)
	}))
	t.Cleanup(ts.Close)
	path = filepath.Join(t.TempDir(), "adc.json")
	data := fmt.Sprintf(`{"type":"authorized_user","client_id":"c","client_secret":"s","refresh_token":"r","token_uri":%q}`, ts.URL)
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, exchanges
}

func streamText(t *testing.T, r *Registry, model, text string) *ai.AssistantMessage {
	t.Helper()
	m, err := r.Find(model)
	if err != nil {
		t.Fatal(err)
	}
	req := &ai.Request{Model: m, Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(text)}}}}
	_, final := r.Stream(context.Background(), req, nil).Collect()
	return final
}

func TestVertexWithApplicationDefaultCredentials(t *testing.T) {
	srv := mockllm.New(t).Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("one")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("two")}},
	)
	path, exchanges := adcFile(t)
	r := googleCloudRegistry(t, srv.URL(), map[string]string{
		"GOOGLE_APPLICATION_CREDENTIALS": path, "GCLOUD_PROJECT": "proj", "GOOGLE_CLOUD_LOCATION": "europe-west4",
	})
	if key, src := r.APIKey("google-vertex"); key != vertex.ADCMarker || src != adcSource {
		t.Fatalf("APIKey = %q from %q", key, src)
	}
	for _, want := range []string{"one", "two"} {
		if final := streamText(t, r, "google-vertex/gemini-2.5-flash", "hi"); final.Text() != want {
			t.Fatalf("reply %q (%s), want %q", final.Text(), final.ErrorMessage, want)
		}
	}
	for _, req := range srv.Requests() {
		if req.Path != "/v1/projects/proj/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent" || req.Header.Get("Authorization") != "Bearer ya29.adc-1" {
			t.Errorf("request %s with %q", req.Path, req.Header.Get("Authorization"))
		}
	}
	if n := exchanges.Load(); n != 1 {
		t.Errorf("%d token exchanges for two requests, want 1 (cached by the registry)", n)
	}
}

func TestVertexWithoutCredentials(t *testing.T) {
	srv := mockllm.New(t)
	r := googleCloudRegistry(t, srv.URL(), map[string]string{"HOME": t.TempDir(), "GOOGLE_CLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "global"})
	if key, _ := r.APIKey("google-vertex"); key != "" {
		t.Fatalf("a key %q without credentials", key)
	}
	final := streamText(t, r, "google-vertex/gemini-2.5-flash", "hi")
	if !strings.Contains(final.ErrorMessage, "set GOOGLE_CLOUD_API_KEY") || !strings.Contains(final.ErrorMessage, "run `gcloud auth application-default login`") {
		t.Errorf("error = %q", final.ErrorMessage)
	}
}

func TestVertexExpressKey(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	// A broken credentials file does not matter when a key is there.
	path := filepath.Join(t.TempDir(), "adc.json")
	if err := os.WriteFile(path, []byte(`{"type":"external_account"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := googleCloudRegistry(t, srv.URL(), map[string]string{"GOOGLE_CLOUD_API_KEY": "AQ.k", "GOOGLE_APPLICATION_CREDENTIALS": path})
	if key, src := r.APIKey("google-vertex"); key != "AQ.k" || src != "env GOOGLE_CLOUD_API_KEY" {
		t.Fatalf("APIKey = %q from %q", key, src)
	}
	if final := streamText(t, r, "google-vertex/gemini-2.5-flash", "hi"); final.Text() != "ok" {
		t.Fatalf("final = %+v", final)
	}
	if req := srv.Requests()[0]; req.Path != "/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent" || req.Header.Get("X-Goog-Api-Key") != "AQ.k" {
		t.Errorf("express request %s key %q", req.Path, req.Header.Get("X-Goog-Api-Key"))
	}
}

func TestVertexBrokenCredentialsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "adc.json")
	if err := os.WriteFile(path, []byte(`{"type":"external_account"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := googleCloudRegistry(t, "http://127.0.0.1:9", map[string]string{
		"GOOGLE_APPLICATION_CREDENTIALS": path, "GOOGLE_CLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "us-central1",
	})
	final := streamText(t, r, "google-vertex/gemini-2.5-flash", "hi")
	if !strings.HasPrefix(final.ErrorMessage, path+": application default credentials of type \"external_account\" are not supported") {
		t.Errorf("error = %q", final.ErrorMessage)
	}
}

func TestGeminiCLISettings(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	r := googleCloudRegistry(t, srv.URL(), map[string]string{"PI_AI_GEMINI_CLI_VERSION": "9.9.9"})
	if key, _ := r.APIKey("google-gemini-cli"); key != "" {
		t.Fatalf("a key %q without a sign-in", key)
	}
	r.SetAPIKey("google-gemini-cli", `{"token":"ya29.s","projectId":"pp"}`)
	if final := streamText(t, r, "google-gemini-cli/gemini-2.5-pro", "hi"); final.Text() != "ok" {
		t.Fatalf("final = %+v", final)
	}
	req := srv.Requests()[0]
	if !strings.HasPrefix(req.Header.Get("User-Agent"), "GeminiCLI/9.9.9/gemini-2.5-pro (") || req.JSON()["project"] != "pp" {
		t.Errorf("User-Agent %q, body %s", req.Header.Get("User-Agent"), req.Body)
	}
}
