package commitagent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/commitgen"
	"github.com/gopi-agent/gopi/core/tool"
)

// Analyzer runs one subagent on an assignment about file and returns its
// answer: the session's quick task (a child session on the smol model
// with the read-only tools). RunAgent gives one; without it the
// analyze_files tool is not offered.
type Analyzer func(ctx context.Context, file, assignment string) (string, error)

// analyzeMaxDiff bounds the characters of the diff an assignment shows.
const analyzeMaxDiff = 40_000

// analyzeWorkers bounds the subagents analyze_files runs at once.
const analyzeWorkers = 4

// analyzerPrompt is added to each subagent's system prompt.
const analyzerPrompt = `You help write a commit message: study one changed file of the repository (read it, search around it) and answer with a JSON object {"summary": one sentence on the file's role, "highlights": 2 to 5 notable changes or behaviours, "risks": edge cases or risks worth a mention (empty when none)}, and nothing else. Change nothing.`

func (tb *toolbox) analyzeTool(run Analyzer) tool.Tool {
	return &funcTool{
		def: tool.Definition{
			Name: "analyze_files", Label: "Analyze Files", ReadOnly: true, Concurrency: tool.Shared,
			Description: "Starts a small read-only subagent per file, in parallel, that studies the file and its change and answers with a summary, highlights and risks. Slow: use it only when the diffs are too large or unclear to judge.",
			Parameters: schema(`{"type":"object","required":["files"],"properties":{` +
				`"files":{"type":"array","minItems":1,"items":{"type":"string","description":"a changed file's path"}},` +
				`"goal":{"type":"string","description":"what to look for (default: the file's purpose and what its change does)"}}}`),
		},
		run: func(ctx context.Context, args tool.Args) (*tool.Result, error) {
			files := stringsArg(args, "files")
			goal, _ := args["goal"].(string)
			tb.state.mu.Lock()
			var nums []commitgen.NumstatEntry
			if tb.state.overview != nil {
				nums = tb.state.overview.Numstat
			}
			tb.state.mu.Unlock()
			answers := make([]string, len(files))
			sem := make(chan struct{}, analyzeWorkers)
			var wg sync.WaitGroup
			for i, f := range files {
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer func() { <-sem; wg.Done() }()
					diff, err := tb.repo.Diff(ctx, true, []string{f})
					out := ""
					if err == nil {
						out, err = run(ctx, f, analyzeAssignment(f, goal, diff, files, nums))
					}
					if err != nil {
						out = "(the analysis failed: " + err.Error() + ")"
					}
					answers[i] = "=== " + f + " ===\n" + strings.TrimSpace(out)
				}()
			}
			wg.Wait()
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return tool.TextResult(strings.Join(answers, "\n\n"), map[string]any{"files": files}), nil
		},
	}
}

// analyzeAssignment is one subagent's task.
func analyzeAssignment(file, goal, diff string, files []string, nums []commitgen.NumstatEntry) string {
	if goal == "" {
		goal = "What the file is for, and what its change does that a commit message should say."
	}
	if len(diff) > analyzeMaxDiff {
		diff = diff[:analyzeMaxDiff] + "\n... (diff cut)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Study %s.\n\nGoal: %s\n\nIts staged diff:\n%s\n", file, goal, diff)
	lines := map[string]int{}
	for _, n := range nums {
		lines[n.Path] = n.Additions + n.Deletions
	}
	var others []string
	for _, f := range files {
		if f == file {
			continue
		}
		if n, ok := lines[f]; ok {
			others = append(others, fmt.Sprintf("- %s (%d lines changed)", f, n))
		} else {
			others = append(others, "- "+f)
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(&b, "\nOther files in this change (say how this file's change relates to them):\n%s\n", strings.Join(others, "\n"))
	}
	b.WriteString("\nAnswer with the JSON object only.")
	return b.String()
}
