package recipe

import (
	"fmt"
	"strings"
)

// PromptTaskLimit is how many tasks of one runner the tool description
// lists; the others still run, and the error texts name them all.
const PromptTaskLimit = 20

// Description is the model-facing description of the tool for the
// runners found: how to write op, then each runner with up to
// PromptTaskLimit of its tasks, their documentation and the command each
// runs.
func Description(runners []*Runner) string {
	var b strings.Builder
	b.WriteString("Runs a task of the project's task runners (just, package.json scripts, cargo targets, make, Taskfile) and returns its output as bash does.\n\n")
	b.WriteString("- `op` is one string: the task name, then any arguments, passed to the command as written: `{op: \"test\"}`, `{op: \"build --release\"}`.\n")
	b.WriteString("- Tasks of workspace packages and cargo targets carry their package in the name, separated by `/`: `{op: \"pkg-a/test\"}`, `{op: \"crate/bin/server\"}`.\n")
	if len(runners) > 1 {
		r, t := ambiguityExample(runners)
		ids := make([]string, len(runners))
		for i, rr := range runners {
			ids[i] = "`" + rr.ID + "`"
		}
		fmt.Fprintf(&b, "- A task name that more than one runner has needs the runner id in front: `{op: \"%s:%s\"}`. Runner ids: %s.\n", r, t, strings.Join(ids, ", "))
	}
	b.WriteString("- The task runs in the project directory (a workspace task in its package's) with bash's timeout and output limits; a non-zero exit is an error.\n")
	for _, r := range runners {
		fmt.Fprintf(&b, "\n<runner id=%q label=%q command=%q>\n", r.ID, r.Label, r.Prefix)
		shown := r.Tasks
		if len(shown) > PromptTaskLimit {
			shown = shown[:PromptTaskLimit]
		}
		for i := range shown {
			t := &shown[i]
			b.WriteString("- `" + t.Name)
			if len(t.Params) > 0 {
				b.WriteString(" " + strings.Join(t.Params, " "))
			}
			b.WriteString("`")
			if t.Doc != "" {
				b.WriteString(" — " + t.Doc)
			}
			b.WriteString(" (`" + r.command(t) + "`")
			if t.Dir != "" {
				b.WriteString(" in `" + t.Dir + "`")
			}
			b.WriteString(")\n")
		}
		if n := len(r.Tasks) - len(shown); n > 0 {
			fmt.Fprintf(&b, "- … %d more; an unknown task name gets the full list back.\n", n)
		}
		b.WriteString("</runner>\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// ambiguityExample picks the runner and task of the prefix example: the
// first task name two runners share, else the first runner's first task.
func ambiguityExample(runners []*Runner) (runner, task string) {
	seen := map[string]string{}
	for _, r := range runners {
		for _, t := range r.Tasks {
			if first, ok := seen[t.Name]; ok {
				return first, t.Name
			}
			seen[t.Name] = r.ID
		}
	}
	for _, r := range runners {
		if len(r.Tasks) > 0 {
			return r.ID, r.Tasks[0].Name
		}
	}
	return "", ""
}
