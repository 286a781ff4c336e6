package commitagent

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/commitgen"
	"github.com/gopi-agent/gopi/core/tool"
)

// The git inspection tools: an overview of the change, the diff of some
// files, some hunks of one file, and the recent commit subjects.

// overviewLockFiles are left out of git_overview's file list (their
// names are listed apart).
var overviewLockFiles = []string{"Cargo.lock", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "bun.lockb", "go.sum", "poetry.lock", "Pipfile.lock", "uv.lock", "composer.lock", "Gemfile.lock", "flake.lock", "pubspec.lock", "Podfile.lock", "mix.lock", "gradle.lockfile"}

func isLockFile(p string) bool { return slices.Contains(overviewLockFiles, path.Base(p)) }

func (tb *toolbox) overviewTool() tool.Tool {
	return &funcTool{
		def: tool.Definition{
			Name: "git_overview", Label: "Git Overview", ReadOnly: true, Concurrency: tool.Shared,
			Description: "Lists the changed files with a --stat summary, lines added and removed per file, and the scope candidates the paths suggest. Call it first.",
			Parameters: schema(`{"type":"object","properties":{` +
				`"staged":{"type":"boolean","description":"look at the staged changes (default true); false looks at the changes not staged"},` +
				`"include_untracked":{"type":"boolean","description":"with staged=false, also list files git does not track"}}}`),
		},
		run: func(ctx context.Context, args tool.Args) (*tool.Result, error) {
			staged, untracked := boolArg(args, "staged", true), boolArg(args, "include_untracked", false)
			all, err := tb.repo.ChangedFiles(ctx, staged)
			if err != nil {
				return nil, err
			}
			ov := &Overview{}
			for _, f := range all {
				if isLockFile(f) {
					ov.ExcludedFiles = append(ov.ExcludedFiles, f)
				} else {
					ov.Files = append(ov.Files, f)
				}
			}
			if ov.Stat, err = tb.repo.Diff(ctx, staged, nil, "--stat"); err != nil {
				return nil, err
			}
			nums, err := tb.repo.Numstat(ctx, staged)
			if err != nil {
				return nil, err
			}
			for _, n := range nums {
				if !isLockFile(n.Path) {
					ov.Numstat = append(ov.Numstat, n)
				}
			}
			ov.ScopeCandidates, ov.IsWideScope = commitgen.ScopeCandidates(ov.Numstat)
			if !staged && untracked {
				if ov.UntrackedFiles, err = tb.repo.Untracked(ctx); err != nil {
					return nil, err
				}
			}
			ov.Files, ov.Numstat = nonNil(ov.Files), nonNilNums(ov.Numstat)
			if staged {
				tb.state.mu.Lock()
				tb.state.overview = ov
				tb.state.mu.Unlock()
			}
			return jsonResult(ov)
		},
	}
}

func nonNilNums(n []commitgen.NumstatEntry) []commitgen.NumstatEntry {
	if n == nil {
		return []commitgen.NumstatEntry{}
	}
	return n
}

// Limits of git_file_diff's answer.
const (
	fileDiffBudget    = 120_000 // characters of all the diffs together (about 30,000 tokens)
	fileDiffLongLines = 30      // a diff longer than this is shortened …
	fileDiffHead      = 15      // … to its first lines
	fileDiffTail      = 10      // … and its last lines
	fileDiffMaxFiles  = 10      // files per call
)

func (tb *toolbox) fileDiffTool() tool.Tool {
	return &funcTool{
		def: tool.Definition{
			Name: "git_file_diff", Label: "Git File Diff", ReadOnly: true, Concurrency: tool.Shared,
			Description: fmt.Sprintf("Shows the diff of up to %d files, source files first. A diff over %d lines is shortened to its first %d and last %d lines; use git_hunk for the hunks in between.", fileDiffMaxFiles, fileDiffLongLines, fileDiffHead, fileDiffTail),
			Parameters: schema(fmt.Sprintf(`{"type":"object","required":["files"],"properties":{`+
				`"files":{"type":"array","minItems":1,"maxItems":%d,"items":{"type":"string","description":"a path from git_overview"}},`+
				`"staged":{"type":"boolean","description":"the staged changes (default true), or the changes not staged"}}}`, fileDiffMaxFiles)),
		},
		run: func(ctx context.Context, args tool.Args) (*tool.Result, error) {
			files := stringsArg(args, "files")
			if len(files) > fileDiffMaxFiles {
				return nil, fmt.Errorf("git_file_diff takes at most %d files, got %d; split the call", fileDiffMaxFiles, len(files))
			}
			staged := boolArg(args, "staged", true)
			diffs := map[string]string{}
			for _, f := range files {
				key := fmt.Sprintf("%t:%s", staged, f)
				tb.state.mu.Lock()
				d, ok := tb.state.diffs[key]
				tb.state.mu.Unlock()
				if !ok {
					var err error
					if d, err = tb.repo.Diff(ctx, staged, []string{f}); err != nil {
						return nil, err
					}
					tb.state.mu.Lock()
					if tb.state.diffs == nil {
						tb.state.diffs = map[string]string{}
					}
					tb.state.diffs[key] = d
					tb.state.mu.Unlock()
				}
				diffs[f] = d
			}
			text := joinDiffs(files, diffs)
			if text == "" {
				text = "(no diff)"
			}
			return tool.TextResult(text, map[string]any{"files": files, "staged": staged}), nil
		},
	}
}

// joinDiffs writes the diffs of files, the most telling files first,
// within fileDiffBudget, shortening long ones.
func joinDiffs(files []string, diffs map[string]string) string {
	order := slices.Clone(files)
	slices.SortStableFunc(order, func(a, b string) int { return filePriority(b) - filePriority(a) })
	var parts []string
	used := 0
	for _, f := range order {
		d := diffs[f]
		if d == "" {
			continue
		}
		left := fileDiffBudget - used
		if left <= 0 {
			continue
		}
		lines := strings.Split(d, "\n")
		if len(d) > left || len(lines) > fileDiffLongLines {
			if len(lines) > fileDiffLongLines {
				cut := len(lines) - fileDiffHead - fileDiffTail
				d = strings.Join(lines[:fileDiffHead], "\n") + fmt.Sprintf("\n\n... (%d lines left out) ...\n\n", cut) + strings.Join(lines[len(lines)-fileDiffTail:], "\n")
			}
			if len(d) > left {
				d = d[:left] + "\n... (diff cut: too long) ..."
			}
		}
		parts = append(parts, "=== "+f+" ===\n"+d)
		used += len(d)
	}
	return strings.Join(parts, "\n\n")
}

// Kinds of file, for the order of git_file_diff.
var (
	binaryExts   = []string{".png", ".jpg", ".jpeg", ".gif", ".ico", ".woff", ".woff2", ".ttf", ".eot", ".pdf", ".zip", ".tar", ".gz", ".exe", ".dll", ".so", ".dylib"}
	codeExts     = []string{".rs", ".go", ".py", ".js", ".ts", ".tsx", ".jsx", ".java", ".c", ".cpp", ".h", ".hpp"}
	scriptExts   = []string{".sh", ".bash", ".zsh", ".sql"}
	dataExts     = []string{".md", ".txt", ".json", ".yaml", ".yml", ".toml", ".xml", ".csv"}
	manifests    = []string{"Cargo.toml", "package.json", "go.mod", "pyproject.toml", "requirements.txt", "Gemfile", "build.gradle", "pom.xml"}
	testMarkings = []string{"/test/", "/tests/", "/__tests__/", "_test.", ".test.", ".spec.", "_spec."}
)

// filePriority ranks a file for git_file_diff: code first, then scripts,
// manifests, other files, data and docs, tests, and binaries last.
func filePriority(p string) int {
	base := path.Base(p)
	ext := ""
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		ext = base[i:]
	}
	lower := strings.ToLower(p)
	switch {
	case slices.Contains(binaryExts, ext):
		return -100
	case slices.ContainsFunc(testMarkings, func(m string) bool { return strings.Contains(lower, m) }):
		return 10
	case slices.Contains(manifests, base):
		return 70
	case slices.Contains(dataExts, ext):
		return 20
	case slices.Contains(scriptExts, ext):
		return 80
	case slices.Contains(codeExts, ext):
		return 100
	}
	return 50
}

func (tb *toolbox) hunkTool() tool.Tool {
	return &funcTool{
		def: tool.Definition{
			Name: "git_hunk", Label: "Git Hunk", ReadOnly: true, Concurrency: tool.Shared,
			Description: "Shows some hunks of one file's diff (all of them when none is named). Hunks are numbered from 1, as split_commit's hunk indices are.",
			Parameters: schema(`{"type":"object","required":["file"],"properties":{` +
				`"file":{"type":"string","description":"the file's path"},` +
				`"hunks":{"type":"array","minItems":1,"items":{"type":"number","description":"a hunk number, from 1"}},` +
				`"staged":{"type":"boolean","description":"the staged changes (default true), or the changes not staged"}}}`),
		},
		run: func(ctx context.Context, args tool.Args) (*tool.Result, error) {
			file, _ := args["file"].(string)
			staged := boolArg(args, "staged", true)
			d, err := tb.repo.Diff(ctx, staged, []string{file})
			if err != nil {
				return nil, err
			}
			var fd commitgen.FileDiff
			for _, x := range commitgen.ParseFileDiffs(d) {
				if x.Path == file {
					fd = x
				}
			}
			if fd.Binary {
				return tool.TextResult("Binary file: it has no hunks to show.", nil), nil
			}
			hunks := fd.Hunks()
			if want := intsArg(args, "hunks"); len(want) > 0 {
				hunks = commitgen.HunkSelector{Type: commitgen.HunksIndices, Indices: want}.Select(hunks)
			}
			if len(hunks) == 0 {
				return tool.TextResult("(no matching hunks)", nil), nil
			}
			texts := make([]string, len(hunks))
			for i, h := range hunks {
				texts[i] = h.Content
			}
			return tool.TextResult(strings.Join(texts, "\n\n"), map[string]any{"file": file, "staged": staged, "hunks": len(hunks)}), nil
		},
	}
}

// conventionalSubject reads "type(scope): summary".
var conventionalSubject = regexp.MustCompile(`(?i)^[a-z]+(?:\(([^)]+)\))?:\s+(.*)$`)

func (tb *toolbox) recentCommitsTool() tool.Tool {
	return &funcTool{
		def: tool.Definition{
			Name: "recent_commits", Label: "Recent Commits", ReadOnly: true, Concurrency: tool.Shared,
			Description: "Lists the subjects of the latest commits with what they have in common (scopes used, first words, lengths, lowercase), for the repository's style.",
			Parameters:  schema(`{"type":"object","properties":{"count":{"type":"number","minimum":1,"maximum":50,"description":"how many commits (default 8)"}}}`),
		},
		run: func(ctx context.Context, args tool.Args) (*tool.Result, error) {
			n := 8
			if v := intsArg(tool.Args{"v": []any{args["count"]}}, "v"); len(v) == 1 && v[0] > 0 {
				n = min(v[0], 50)
			}
			subjects := tb.repo.RecentSubjects(ctx, n)
			verbs, scopes := map[string]int{}, map[string]int{}
			withScope, lower, total, shortest, longest := 0, 0, 0, 0, 0
			for i, s := range subjects {
				summary := strings.TrimSpace(s)
				if m := conventionalSubject.FindStringSubmatch(s); m != nil {
					summary = strings.TrimSpace(m[2])
					if m[1] != "" {
						withScope++
						scopes[strings.TrimSpace(m[1])]++
					}
				}
				if summary != "" && strings.ToLower(summary[:1]) == summary[:1] {
					lower++
				}
				if f := strings.Fields(summary); len(f) > 0 {
					verbs[strings.ToLower(f[0])]++
				}
				l := len([]rune(summary))
				total += l
				if i == 0 || l < shortest {
					shortest = l
				}
				longest = max(longest, l)
			}
			pct := func(k int) int {
				if len(subjects) == 0 {
					return 0
				}
				return (k*100 + len(subjects)/2) / len(subjects)
			}
			avg := 0.0
			if len(subjects) > 0 {
				avg = float64(total*10/len(subjects)) / 10
			}
			return jsonResult(map[string]any{
				"commits": nonNil(subjects),
				"stats": map[string]any{
					"scopeUsagePercent":       pct(withScope),
					"commonVerbs":             verbs,
					"summaryLength":           map[string]any{"min": shortest, "max": longest, "average": avg},
					"lowercaseSummaryPercent": pct(lower),
					"topScopes":               scopes,
				},
			})
		},
	}
}

// boolArg reads a boolean argument, def when absent.
func boolArg(args tool.Args, name string, def bool) bool {
	if b, ok := args[name].(bool); ok {
		return b
	}
	return def
}

// stringsArg reads an array of strings.
func stringsArg(args tool.Args, name string) []string {
	list, _ := args[name].([]any)
	var out []string
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// intsArg reads an array of numbers as integers (fractions dropped).
func intsArg(args tool.Args, name string) []int {
	list, _ := args[name].([]any)
	var out []int
	for _, v := range list {
		if f, ok := toFloat(v); ok {
			out = append(out, int(f))
		}
	}
	return out
}
