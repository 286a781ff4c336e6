package task

import (
	"strings"
	"testing"
)

// A generated definition is read from the JSON object alone, fenced or
// wrapped in text, and its file parses as the agent it describes.
func TestParseGenerated(t *testing.T) {
	for _, answer := range []string{
		`{"identifier":"test-runner","whenToUse":"Use this agent when tests need running.","systemPrompt":"You run tests.\n---\nAnd report."}`,
		"```json\n{\"identifier\":\"test-runner\",\"whenToUse\":\"use this agent when tests need running.\",\"systemPrompt\":\"You run tests.\\n---\\nAnd report.\"}\n```",
		`Sure: {"identifier":"test-runner","whenToUse":"Use this agent when tests need running.","systemPrompt":"You run tests.\n---\nAnd report."} done`,
	} {
		g, err := ParseGenerated(answer)
		if err != nil {
			t.Fatalf("%q: %v", answer, err)
		}
		a, err := ParseAgent("test-runner.md", g.File(), SourceProject)
		if err != nil {
			t.Fatalf("the file does not parse: %v\n%s", err, g.File())
		}
		if a.Name != "test-runner" || !strings.HasPrefix(strings.ToLower(a.Description), "use this agent when") || a.Prompt != "You run tests.\n---\nAnd report." {
			t.Errorf("parsed back as %+v", a)
		}
	}
	for answer, want := range map[string]string{
		"no json here":         "not the JSON object",
		`{"identifier":"x-y"}`: "lacks identifier",
		`{"identifier":"Test Runner","whenToUse":"Use this agent when","systemPrompt":"p"}`:   "is not lowercase words",
		`{"identifier":"single","whenToUse":"Use this agent when","systemPrompt":"p"}`:        "is not lowercase words",
		`{"identifier":"test-runner","whenToUse":"Runs tests","systemPrompt":"p"}`:            "Use this agent when",
		`{"identifier":"test-runner","whenToUse":"Use this agent when x","systemPrompt":" "}`: "systemPrompt is empty",
	} {
		if _, err := ParseGenerated(answer); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", answer, err, want)
		}
	}
}

// Whatever a model answers, ParseGenerated does not panic, and what it
// accepts writes a file that parses back to the same agent.
func FuzzParseGenerated(f *testing.F) {
	f.Add(`{"identifier":"a-b","whenToUse":"Use this agent when x","systemPrompt":"y"}`)
	f.Fuzz(func(t *testing.T, answer string) {
		g, err := ParseGenerated(answer)
		if err != nil {
			return
		}
		a, err := ParseAgent(g.Name+".md", g.File(), SourceUser)
		if err != nil {
			t.Fatalf("accepted %q but its file does not parse: %v\n%s", answer, err, g.File())
		}
		if a.Name != g.Name || a.Description != strings.TrimSpace(g.Description) || a.Prompt != strings.TrimSpace(g.Prompt) {
			t.Fatalf("%q parsed back as %+v, want %+v", answer, a, g)
		}
	})
}
