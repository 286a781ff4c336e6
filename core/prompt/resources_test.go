package prompt

import (
	"context"
	"strings"
	"testing"
)

func TestRulesAndSkillsSections(t *testing.T) {
	opts := Options{
		Cwd:          t.TempDir(),
		Now:          fixedNow,
		Tools:        builtinNames,
		ContextFiles: []ContextFile{},
		Skills:       []Skill{{Name: "pdf", Description: "Work with\nPDF files."}},
		AlwaysRules:  []Rule{{Name: "tabs", Content: "Indent with tabs.\n"}},
		Rulebook:     []Rule{{Name: "go-style", Description: "Go code style", Globs: []string{"*.go", "go.mod"}}},
	}
	p, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Rules\n",
		"<rule name=\"tabs\">\nIndent with tabs.\n</rule>",
		"# Rulebook\n",
		"read rule://<name>",
		"- go-style: Go code style (files: *.go, go.mod)\n",
		"# Skills\n",
		"read skill://<name>",
		"- pdf: Work with PDF files.",
	} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if strings.Index(p.Text, "# Rules\n") > strings.Index(p.Text, "# Rulebook") || strings.Index(p.Text, "# Rulebook") > strings.Index(p.Text, "# Skills") {
		t.Error("sections out of order: always-apply rules, rulebook, skills")
	}
	// Without the read tool the skills cannot be read: not listed.
	opts.Tools = []string{"bash"}
	p, err = Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Text, "# Skills") {
		t.Error("skills listed without the read tool")
	}
}
