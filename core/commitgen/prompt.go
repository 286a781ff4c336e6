package commitgen

import (
	"fmt"
	"strings"
)

// instructions is the system prompt of the request: the conventions a
// message follows (our words for the rules omp's commit command applies).
var instructions = fmt.Sprintf(`You write git commit messages in the Conventional Commits form for the staged changes you are shown. Answer by calling propose_commit once.

type: one of %s. feat adds a capability, fix corrects behaviour, refactor restructures without changing behaviour, perf makes something faster or smaller, docs, test, build (build system, dependencies), ci, chore (maintenance), style (formatting only), revert.

scope: the component most of the changed lines belong to (at least about 60%% of them), in lowercase, such as "parser" or "api/auth" (two segments at most). Leave it empty when the change spreads over several components, and never use a generic word such as src, lib, app, main, misc, all, tests or docs. Prefer a scope the recent commits already use.

summary: what the commit does, starting with a lowercase verb in the past tense (added, fixed, moved, removed, …), naming the part of the code it touches, at most %d characters, one line, no trailing period, and without repeating the type or scope. Avoid empty words such as various, several, improved, enhanced or comprehensive.

details: zero to %d sentences for the body, each in the past tense, ending with a period, at most %d characters, saying what changed and why it matters (the impact or the reason rather than a list of edits). Group similar small changes into one sentence; leave out formatting, import and comment-only changes. Reference issues inline as (#123) when the diff or the user names them.`,
	strings.Join(Types, ", "), MaxSummary, MaxDetails, MaxDetail)

// toolSchema is the JSON Schema of propose_commit's arguments.
var toolSchema = fmt.Sprintf(`{"type":"object","properties":{"type":{"type":"string","enum":["%s"]},"scope":{"type":"string","description":"component, or empty"},"summary":{"type":"string","description":"at most %d characters, past tense, no trailing period"},"details":{"type":"array","items":{"type":"string"},"description":"body sentences, each ending with a period"}},"required":["type","summary"]}`,
	strings.Join(Types, `","`), MaxSummary)

// userPrompt builds the request's user message from what the repository
// says about the change.
func userPrompt(in Input) string {
	var b strings.Builder
	if in.Context != "" {
		fmt.Fprintf(&b, "What the user says about this change:\n%s\n\n", in.Context)
	}
	if len(in.RecentSubjects) > 0 {
		fmt.Fprintf(&b, "Recent commit subjects, for the style and scopes of this repository:\n%s\n\n", strings.Join(in.RecentSubjects, "\n"))
	}
	fmt.Fprintf(&b, "Files changed (git diff --cached --stat):\n%s\n", strings.TrimRight(in.Stat, "\n"))
	if in.Observations != "" {
		fmt.Fprintf(&b, "\nThe diff is too large to show: what each file's diff changes, file by file:\n%s", in.Observations)
		return b.String()
	}
	diff := in.Diff
	if len(diff) > MaxDiff {
		diff = diff[:MaxDiff] + fmt.Sprintf("\n[the diff goes on: cut at %d of %d characters; the list above names every file]", MaxDiff, len(in.Diff))
	}
	fmt.Fprintf(&b, "\nThe staged diff:\n%s", diff)
	return b.String()
}
