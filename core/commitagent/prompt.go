package commitagent

import (
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/commitgen"
)

// systemPrompt tells the commit agent its job, in our words for the
// rules of omp's commit agent.
var systemPrompt = fmt.Sprintf(`You write the commits for the changes staged in a git repository, in the Conventional Commits form. Gather what you need with the git tools, then finish with exactly one of:
- propose_commit, when the changes form one commit;
- split_commit, when they are unrelated and belong in separate commits.

How to work:
1. Call git_overview first.
2. Read little: one or two git_file_diff calls on the files that matter most are usually enough.
3. Use git_hunk only for diffs too long to read whole, and recent_commits only when the repository's style is unclear.
4. Use analyze_files only when the diffs are too large or unclear to judge: it is slow.

The message:
- type: one of %s.
- scope: optional; lowercase, at most two segments (a/b) of letters, digits, - and _; prefer the scope candidates git_overview gives.
- summary: starts with a verb in the past tense (added, fixed, moved, …), at most %d characters, no trailing period, without the type or scope.
- Avoid filler words (comprehensive, various, several, improved, enhanced, better) and empty phrases ("this commit", "this change", "updated code", "modified files").
- details: zero to %d sentences, each ending with a period, at most %d characters, about what changed and why it matters.

A split: every staged file in exactly one commit (whole, or some of its hunks), no file twice; a commit that needs another lists it in dependencies (0-based positions in the list).

Changelogs: when the task names changelog files, call propose_changelog with entries for each of them before you finish (entries a user of the project should read, by Keep a Changelog category; none when nothing is worth a line), and in a split put each changelog file in the commit its entries describe.`,
	strings.Join(commitgen.Types, ", "), commitgen.MaxSummary, commitgen.MaxDetails, commitgen.MaxDetail)

// ExistingEntries are the [Unreleased] entries a changelog has already.
type ExistingEntries struct {
	Path     string
	Sections map[string][]string
}

// userPrompt is the task the agent is given.
func userPrompt(context string, changelogs []string, existing []ExistingEntries) string {
	var b strings.Builder
	b.WriteString("Write the commit for the staged changes of this repository.\n")
	if context != "" {
		fmt.Fprintf(&b, "\nWhat the user says about them:\n%s\n", context)
	}
	if len(changelogs) > 0 {
		fmt.Fprintf(&b, "\nChangelogs to give entries for with propose_changelog:\n%s\n", strings.Join(changelogs, "\n"))
	}
	if len(existing) > 0 {
		b.WriteString("\nEntries these changelogs already have under [Unreleased]; an entry this change makes wrong or redundant can be removed with propose_changelog's deletions:\n")
		for _, e := range existing {
			fmt.Fprintf(&b, "\n%s\n", e.Path)
			for _, cat := range commitgen.ChangelogCategories {
				if items := e.Sections[cat]; len(items) > 0 {
					fmt.Fprintf(&b, "%s:\n- %s\n", cat, strings.Join(items, "\n- "))
				}
			}
		}
	}
	b.WriteString("\nInspect the changes with the git tools, then finish with propose_commit or split_commit.")
	return b.String()
}

// reminder asks for what is still missing after the agent stopped.
func reminder(missing []string, n, of int) string {
	return fmt.Sprintf("<system-reminder>\nYou stopped without calling the tools this task needs.\nStill missing: %s.\nReminder %d of %d: call them now.\n</system-reminder>", strings.Join(missing, ", "), n, of)
}
