package task

import (
	"fmt"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// previewChars is how much of an answer the model sees in the result; the
// rest is read at agent://<id>.
const previewChars = 5000

// subagentPreamble opens every subagent's part of the system prompt.
const subagentPreamble = `# Working as a subagent
Another agent handed you an assignment and is waiting for the result. Nobody will answer questions along the way: decide for yourself and state the assumptions you make. Your final message is the result; the caller sees nothing else, so make it complete and to the point.`

// childPrompt is the system prompt text added for a subagent running a:
// the preamble, the definition's prompt and the call's shared context.
func childPrompt(a *Agent, context string) string {
	var b strings.Builder
	b.WriteString(subagentPreamble)
	if a.Prompt != "" {
		b.WriteString("\n\n" + a.Prompt)
	}
	if c := strings.TrimSpace(context); c != "" {
		b.WriteString("\n\n# Background from the caller\n" + c)
	}
	return b.String()
}

// final builds the tool's result: a header, then each task's answer (a
// preview when it is long) between <task> tags, and the details.
func (r *run) final() *tool.Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	counts := map[Status]int{}
	var paths []string
	for _, res := range r.results {
		counts[res.Status]++
		if res.OutputPath != "" {
			paths = append(paths, res.OutputPath)
		}
	}
	elapsed := time.Since(r.start)
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d %s tasks completed", counts[StatusCompleted], len(r.results), r.agent.Name)
	if n := counts[StatusFailed]; n > 0 {
		fmt.Fprintf(&b, ", %d failed", n)
	}
	if n := counts[StatusAborted]; n > 0 {
		fmt.Fprintf(&b, ", %d aborted", n)
	}
	fmt.Fprintf(&b, " (%s).\n", elapsed.Round(100*time.Millisecond))
	kept := r.tool.env.Artifacts != nil
	for _, res := range r.results {
		fmt.Fprintf(&b, "\n<task id=%q status=%q>\n", res.ID, res.Status)
		if res.Error != "" {
			b.WriteString("Error: " + res.Error + "\n")
		}
		if res.Output != "" {
			preview, cut := previewOf(res.Output)
			b.WriteString(preview + "\n")
			if cut || res.Truncated {
				if kept {
					fmt.Fprintf(&b, "[Answer cut: %d lines in all; read agent://%s for the whole text]\n", res.OutputMeta.LineCount, res.ID)
				} else {
					fmt.Fprintf(&b, "[Answer cut: %d lines in all; the whole text is not kept, as this session has no file]\n", res.OutputMeta.LineCount)
				}
			}
		}
		b.WriteString("</task>\n")
	}
	results := append([]Result(nil), r.results...)
	return &tool.Result{
		Content: []tool.Content{tool.Text(strings.TrimRight(b.String(), "\n"))},
		Details: &Details{Agent: r.agent.Name, Results: results, TotalDurationMs: elapsed.Milliseconds(), OutputPaths: paths},
		IsError: counts[StatusCompleted] == 0,
	}
}

// previewOf returns the start of an answer, cut at a line end within
// previewChars characters (at previewChars when the first line is longer).
func previewOf(s string) (string, bool) {
	r := []rune(s)
	if len(r) <= previewChars {
		return s, false
	}
	head := string(r[:previewChars])
	if i := strings.LastIndexByte(head, '\n'); i > 0 {
		head = head[:i]
	}
	return head, true
}
