package commitgen

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

// Map-reduce, for a diff too large to show the model whole (omp's legacy
// pipeline): each file's diff is read on its own by the small model,
// which answers with a few observations (the map), and the message is
// written from the observations instead of the diff (the reduce).

// MapReduceOptions say when and how to map and reduce.
type MapReduceOptions struct {
	MinFiles      int           // map-reduce from this many files (lock files not counted); 0: 4
	MaxFileTokens int           // … or when one file's diff is over this many tokens (≈ characters/4); 0: 50,000
	Concurrency   int           // per-file requests at once; 0: 5
	Timeout       time.Duration // limit of one per-file request; 0: 2 minutes
	Backoff       time.Duration // wait before the second attempt (twice it before the third); 0: 1 s
}

// Defaults of MapReduceOptions (omp's).
const (
	defaultMapMinFiles   = 4
	defaultMapFileTokens = 50_000
	defaultMapWorkers    = 5
	defaultMapTimeout    = 2 * time.Minute
	defaultMapBackoff    = time.Second
	mapAttempts          = 3   // per file
	mapMaxTokens         = 400 // of one answer
	maxObservations      = 5   // kept per file
	maxRelatedFiles      = 20  // other files named in a file's request
)

func (o MapReduceOptions) withDefaults() MapReduceOptions {
	if o.MinFiles <= 0 {
		o.MinFiles = defaultMapMinFiles
	}
	if o.MaxFileTokens <= 0 {
		o.MaxFileTokens = defaultMapFileTokens
	}
	if o.Concurrency <= 0 {
		o.Concurrency = defaultMapWorkers
	}
	if o.Timeout <= 0 {
		o.Timeout = defaultMapTimeout
	}
	if o.Backoff <= 0 {
		o.Backoff = defaultMapBackoff
	}
	return o
}

// mapFiles are the files of diff the map phase reads (lock files left
// out).
func mapFiles(diff string) []FileDiff {
	return slices.DeleteFunc(ParseFileDiffs(diff), func(f FileDiff) bool { return ExcludedFromDiff(f.Path) })
}

// UseMapReduce reports whether diff is large enough to map and reduce:
// MinFiles files or more, or one file over MaxFileTokens.
func UseMapReduce(diff string, o MapReduceOptions) bool {
	o = o.withDefaults()
	files := mapFiles(diff)
	return len(files) >= o.MinFiles || slices.ContainsFunc(files, func(f FileDiff) bool { return (len(f.Content)+3)/4 > o.MaxFileTokens })
}

// observerInstructions is the map phase's system prompt.
const observerInstructions = `You read the diff of one file of a commit and list what it changes, as facts: one to five lines, each starting with a verb in the past tense and naming what it touches (a function, type, option, behaviour), at most 100 characters, similar changes grouped into one line ("renamed 4 helpers"). Leave out import order, formatting, comments and debug output. Answer with the lines only, one per line: no preamble, no summary, no markdown. The commit's type is decided later.`

// Observations are what the map phase found: "- path: observation"
// lines, the reduce phase's input instead of the diff.
func (g *Generator) Observations(ctx context.Context, diff string, o MapReduceOptions) (string, error) {
	o = o.withDefaults()
	files := mapFiles(diff)
	results := make([][]string, len(files))
	errs := make([]error, len(files))
	sem := make(chan struct{}, o.Concurrency)
	var wg sync.WaitGroup
	for i, f := range files {
		if f.Binary {
			results[i] = []string{"Binary file changed."}
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i], errs[i] = g.observe(ctx, f, relatedFiles(files, f.Path), o)
		}()
	}
	wg.Wait()
	var b strings.Builder
	for i, f := range files {
		if errs[i] != nil {
			return "", fmt.Errorf("reading the diff of %s: %w", f.Path, errs[i])
		}
		for _, line := range results[i] {
			fmt.Fprintf(&b, "- %s: %s\n", f.Path, line)
		}
	}
	return b.String(), nil
}

// observe asks the small model about one file, up to mapAttempts times.
func (g *Generator) observe(ctx context.Context, f FileDiff, related string, o MapReduceOptions) ([]string, error) {
	content := f.Content
	if limit := o.MaxFileTokens * 4; len(content) > limit {
		content = content[:limit] + "\n... (cut)"
	}
	text := fmt.Sprintf("<file path=%q>\n%s\n</file>", f.Path, content)
	if related != "" {
		text += "\n<related-files>\n" + related + "\n</related-files>"
	}
	model := g.Smol
	if model == nil {
		model = g.Model
	}
	req := &ai.Request{
		Model:        model,
		SystemPrompt: observerInstructions,
		Messages:     []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(text)}, Timestamp: time.Now().UnixMilli()}},
		MaxTokens:    mapMaxTokens,
		Thinking:     ai.ThinkingOff,
	}
	var err error
	for attempt := range mapAttempts {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(o.Backoff * time.Duration(attempt)):
			}
		}
		var lines []string
		if lines, err = g.observeOnce(ctx, req, o.Timeout); err == nil {
			return lines, nil
		}
	}
	return nil, err
}

// observeOnce sends one map request and reads its lines.
func (g *Generator) observeOnce(ctx context.Context, req *ai.Request, timeout time.Duration) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	reply := g.Stream(ctx, req).Result(ctx)
	if reply == nil {
		return nil, fmt.Errorf("%s gave no answer", req.Model.ID)
	}
	if reply.StopReason == ai.StopReasonError || reply.StopReason == ai.StopReasonAborted {
		return nil, fmt.Errorf("%s: %s", req.Model.ID, reply.ErrorMessage)
	}
	var lines []string
	for _, l := range strings.Split(reply.Text(), "\n") {
		l = strings.TrimSpace(l)
		for _, bullet := range []string{"- ", "* "} {
			l = strings.TrimSpace(strings.TrimPrefix(l, bullet))
		}
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines[:min(maxObservations, len(lines))], nil
}

// relatedFiles lists the other files of the change for one file's
// request, the largest first.
func relatedFiles(files []FileDiff, current string) string {
	if len(files) > 100 {
		return fmt.Sprintf("(Large commit with %d total files)", len(files))
	}
	others := slices.DeleteFunc(slices.Clone(files), func(f FileDiff) bool { return f.Path == current })
	if len(others) == 0 {
		return ""
	}
	slices.SortStableFunc(others, func(a, b FileDiff) int {
		return (b.Additions + b.Deletions) - (a.Additions + a.Deletions)
	})
	var b strings.Builder
	b.WriteString("OTHER FILES IN THIS CHANGE:")
	for _, f := range others[:min(maxRelatedFiles, len(others))] {
		fmt.Fprintf(&b, "\n- %s (%d lines): %s", f.Path, f.Additions+f.Deletions, fileKind(f))
	}
	if len(others) > maxRelatedFiles {
		fmt.Fprintf(&b, "\n... and %d more files", len(others)-maxRelatedFiles)
	}
	return b.String()
}

// fileKind guesses what a file is from its name and diff.
func fileKind(f FileDiff) string {
	name := strings.ToLower(f.Path)
	switch {
	case strings.Contains(name, "test"):
		return "test file"
	case strings.HasSuffix(name, ".md"):
		return "documentation"
	case strings.Contains(name, "config") || strings.HasSuffix(name, ".toml") || strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml"):
		return "configuration"
	case strings.Contains(name, "error"):
		return "error definitions"
	case strings.Contains(name, "type"):
		return "type definitions"
	case strings.HasSuffix(name, "main.go") || strings.HasSuffix(name, "main.rs") || strings.HasSuffix(name, "main.py"):
		return "entry point"
	case strings.Contains(f.Content, "interface ") || strings.Contains(f.Content, "type "):
		return "type definitions"
	case strings.Contains(f.Content, "func ") || strings.Contains(f.Content, "function ") || strings.Contains(f.Content, "class ") || strings.Contains(f.Content, "fn "):
		return "implementation"
	}
	return "source code"
}
