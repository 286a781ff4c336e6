package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestGeneratedFileIsCurrent regenerates the catalogue from the checked-in
// copy of omp's models.json and compares it with core/ai/models'
// catalog_data.go: a hand edit of either, or a generator change without a
// regeneration, fails here.
func TestGeneratedFileIsCurrent(t *testing.T) {
	raw, err := readInput("pi-ai-models.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	want, err := generate(raw)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../catalog_data.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("core/ai/models/catalog_data.go is not what catalogen makes of pi-ai-models.json.gz; run go generate ./core/ai/models")
	}
}

// TestRejectsUnknownFields: a catalogue fact the generator does not know
// stops it, naming the model.
func TestRejectsUnknownFields(t *testing.T) {
	doc := `{"p": {"m": {"id": "m", "name": "M", "api": "openai-completions", "provider": "p", "baseUrl": "http://h",
		"reasoning": false, "input": ["text"], "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
		"contextWindow": 1000, "maxTokens": 100, "shinyNewFact": 1}}}`
	_, err := generate([]byte(doc))
	if err == nil || !strings.Contains(err.Error(), "p/m") || !strings.Contains(err.Error(), "shinyNewFact") {
		t.Fatalf("got %v", err)
	}
	ok := strings.Replace(doc, `, "shinyNewFact": 1`, "", 1)
	src, err := generate([]byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte(`{textRef{0, 1}, textRef{1, 1}, textRef{2, 18}, textRef{20, 8}, textRef{}, 0, 0, 0, 1000, 100, [4]float64{0, 0, 0, 0}}`)) ||
		!bytes.Contains(src, []byte(`const catalogText = "mMopenai-completionshttp://h"`)) {
		t.Errorf("unexpected output:\n%s", src)
	}
}

// TestKeepsOrder: providers and models come out in the file's order, not
// sorted.
func TestKeepsOrder(t *testing.T) {
	model := func(p, id string) string {
		return `"` + id + `": {"id": "` + id + `", "name": "N", "api": "a", "provider": "` + p + `", "baseUrl": "u", "reasoning": true,
			"input": ["text", "image"], "cost": {"input": 1, "output": 2, "cacheRead": 0, "cacheWrite": 0}, "contextWindow": 10, "maxTokens": 5}`
	}
	doc := `{"zeta": {` + model("zeta", "b") + `, ` + model("zeta", "a") + `}, "alpha": {` + model("alpha", "c") + `}}`
	src, err := generate([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	if !(strings.Index(s, `name: "zeta"`) < strings.Index(s, `name: "alpha"`) && strings.Contains(s, `const catalogText = "bNauc"`) &&
		strings.Index(s, "{textRef{0, 1}, ") < strings.Index(s, "{textRef{2, 1}, ") && strings.Index(s, "{textRef{2, 1}, ") < strings.Index(s, "{textRef{4, 1}, ")) {
		t.Errorf("order lost:\n%s", s)
	}
}
