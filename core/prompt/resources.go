package prompt

import (
	"slices"
	"strings"
)

// Skill is a skill as the system prompt lists it.
type Skill struct {
	Name        string // read as skill://<Name>
	Description string // when it helps
}

// Rule is a rule as the system prompt shows it.
type Rule struct {
	Name        string   // read as rule://<Name>
	Path        string   // the rule's file
	Description string   // when it applies (rulebook rules)
	Globs       []string // files it is about (advisory)
	Content     string   // the text (always-apply rules are shown in full)
}

// writeRules appends the always-apply rules in full, then the rulebook: the
// other rules the model reads as rule://<name> when their description
// fits the work.
func writeRules(b *strings.Builder, always, book []Rule) {
	if len(always) > 0 {
		b.WriteString("\n# Rules\nThe user's and the project's standing rules; follow them in all work.\n")
		for _, r := range always {
			b.WriteString("\n<rule name=\"")
			b.WriteString(r.Name)
			b.WriteString("\">\n")
			b.WriteString(strings.TrimSpace(r.Content))
			b.WriteString("\n</rule>\n")
		}
	}
	if len(book) > 0 {
		b.WriteString("\n# Rulebook\nRules for particular kinds of work. Before working on something a rule's description covers, read rule://<name> and follow it.\n")
		for _, r := range book {
			b.WriteString("- ")
			b.WriteString(r.Name)
			b.WriteString(": ")
			b.WriteString(oneLine(r.Description))
			if len(r.Globs) > 0 {
				b.WriteString(" (files: ")
				b.WriteString(strings.Join(r.Globs, ", "))
				b.WriteString(")")
			}
			b.WriteByte('\n')
		}
	}
}

// writeSkills appends the skills list when the model can read them.
func writeSkills(b *strings.Builder, skills []Skill, tools []string) {
	if len(skills) == 0 || !slices.Contains(tools, "read") {
		return
	}
	b.WriteString("\n# Skills\nSkills are instructions for particular tasks. When a task matches a skill's description, read skill://<name> before starting and follow it; files it refers to are at skill://<name>/<path>.\n")
	for _, s := range skills {
		b.WriteString("- ")
		b.WriteString(s.Name)
		if d := oneLine(s.Description); d != "" {
			b.WriteString(": ")
			b.WriteString(d)
		}
		b.WriteByte('\n')
	}
}

// oneLine joins a text's lines with spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
