package models

import (
	"strings"
	"testing"
)

// AddProvider takes a models.yml provider entry (here JSON, as an
// extension registers it): the provider and its models become known, with
// models.yml's defaults; a new provider without baseUrl/api is refused.
func TestAddProvider(t *testing.T) {
	r, err := Load(Options{NoFiles: true, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	err = r.AddProvider("corp", []byte(`{"baseUrl":"http://127.0.0.1:9/v1/","api":"openai-completions","apiKey":"CORP_KEY","models":[{"id":"corp-large","contextWindow":64000}]}`), "ext.ts")
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Find("corp/corp-large")
	if err != nil {
		t.Fatal(err)
	}
	if m.BaseURL != "http://127.0.0.1:9/v1" || m.API != "openai-completions" || m.ContextWindow != 64000 || m.MaxTokens != 16384 || m.Name != "corp-large" {
		t.Errorf("model %+v", m)
	}
	if err := r.AddProvider("half", []byte(`{"models":[{"id":"x"}]}`), "ext.ts"); err == nil || !strings.Contains(err.Error(), "needs baseUrl and api") {
		t.Errorf("a provider without baseUrl: %v", err)
	}
	if err := r.AddProvider("bad name", []byte(`{}`), "ext.ts"); err == nil {
		t.Error("a name with a space was accepted")
	}
}
