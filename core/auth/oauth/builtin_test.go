package oauth

import (
	"slices"
	"testing"
)

// baseURLer is the optional interface the credential store honours.
type baseURLer interface{ BaseURL(Credentials) string }

func TestBuiltinOrderAndLookup(t *testing.T) {
	ps := BuiltinWith(Options{GoogleCloudProject: "p", CopilotModels: []string{"m"}})
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID())
		if p.Name() == "" {
			t.Errorf("%s has no name", p.ID())
		}
	}
	want := []string{"anthropic", "openai-codex", "github-copilot", "google-gemini-cli", "google-antigravity"}
	if !slices.Equal(ids, want) {
		t.Fatalf("ids = %q, want omp's order %q", ids, want)
	}
	p, ok := ps.Lookup("google-gemini-cli")
	if !ok || p.(*GeminiCLI).Project != "p" {
		t.Fatalf("Lookup: %v %v", p, ok)
	}
	if _, ok := ps.Lookup("nope"); ok {
		t.Error("Lookup found an unknown id")
	}
	c, _ := ps.Lookup("github-copilot")
	if _, ok := c.(baseURLer); !ok || !slices.Equal(c.(*Copilot).Models, []string{"m"}) {
		t.Error("Copilot does not offer BaseURL or lost its models")
	}
	for _, id := range []string{"anthropic", "openai-codex", "google-gemini-cli", "google-antigravity"} {
		if p, _ := ps.Lookup(id); p != nil {
			if _, ok := p.(baseURLer); ok {
				t.Errorf("%s offers a BaseURL it does not need", id)
			}
		}
	}
}

// The callbacks are omp's: the same redirect URIs, so either program's
// registration matches.
func TestBuiltinCallbacks(t *testing.T) {
	for _, tc := range []struct {
		cb    Callback
		port  int
		path  string
		fixed bool
	}{
		{NewAnthropic(nil).Callback, 54545, "/callback", false},
		{NewCodex(nil).Callback, 1455, "/auth/callback", true},
		{NewGeminiCLI(nil).Callback, 8085, "/oauth2callback", false},
		{NewAntigravity(nil).Callback, 51121, "/oauth-callback", false},
	} {
		if tc.cb.Port != tc.port || tc.cb.Path != tc.path || tc.cb.Fixed != tc.fixed {
			t.Errorf("callback %+v, want port %d path %s fixed %v", tc.cb, tc.port, tc.path, tc.fixed)
		}
	}
}
