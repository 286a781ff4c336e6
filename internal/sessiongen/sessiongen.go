// Package sessiongen writes large session files shaped like the sessions a
// long-running coding agent leaves behind, for benchmarks and for tests
// that compare fast and reference ways of loading them.
//
// A generated session is a sequence of turns: a user prompt (sometimes a
// pasted log, sometimes a screenshot), assistant rounds with thinking,
// short texts and tool calls (read, bash, edit, search, find, write,
// todo_write), one tool result per call (file contents, command output,
// search matches, diffs in details, now and then an error), and a final
// answer in markdown. Between turns come model and thinking-level changes,
// labels, extension state (custom), extension messages (custom_message),
// rule injections, plan-mode switches and the user's own shell commands.
// When the estimated context passes Options.CompactAt tokens a compaction
// is written (summary, firstKeptEntryId, details), as the agent does after
// a turn; now and then the user goes back to an earlier prompt and starts
// a new branch there, with or without a branch summary, leaving the old
// branch in the file. Assistant usage reports the estimated context, so an
// agent continuing the session sees a context below its compaction
// threshold.
//
// Everything is written through core/session's Manager, so the file is
// exactly what the agent writes; the output is a fixed function of the
// options (seed included).
package sessiongen

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
)

// Options says what to generate.
type Options struct {
	Dir        string // directory the session file is created in (created if missing)
	BlobDir    string // blob store for images ("" keeps them inline)
	Cwd        string // working directory recorded in the header
	Entries    int    // entries to write, about (the last turn is completed)
	Bytes      int64  // file size to aim for; tool output sizes are adjusted to reach it
	Seed       uint64 // the same options and seed give the same file
	CompactAt  int    // estimated context tokens that trigger a compaction (default 100,000)
	KeepRecent int    // estimated tokens a compaction keeps (default 20,000)
}

// Stats describes a generated session.
type Stats struct {
	Path          string // the session file
	Entries       int    // entries written
	Bytes         int64  // file size
	Compactions   int    // compaction entries
	Branches      int    // times the leaf went back to an earlier prompt
	Images        int    // screenshots attached to prompts
	ContextTokens int    // estimated context at the leaf
}

// node is one message of the context at the leaf, as the generator tracks
// it: its entry, its parent (where a branch back to it starts) and its
// estimated tokens.
type node struct {
	id, parent string
	tokens     int
	user       bool
}

// gen is the state of one generation.
type gen struct {
	opts  Options
	m     *session.Manager
	t     text
	r     *rand.Rand
	clock time.Time
	ctx   []node // the context at the leaf: the latest compaction's summary first, when there is one
	post  int    // index in ctx of the first node after the latest compaction (0 without one)
	model string
	stats Stats
	calls int

	written    int64 // bytes of persisted entries
	big, count int   // results of size-driven tools; entries
	bigBytes   int64 // their bytes
	plan       bool  // plan mode is on
}

// Write generates a session as opts says and returns what it wrote.
func Write(opts Options) (Stats, error) {
	if opts.Dir == "" || opts.Entries <= 0 {
		return Stats{}, errors.New("sessiongen: a directory and a positive entry count are needed")
	}
	if opts.CompactAt <= 0 {
		opts.CompactAt = 100_000
	}
	if opts.KeepRecent <= 0 {
		opts.KeepRecent = 20_000
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return Stats{}, fmt.Errorf("sessiongen: %w", err)
	}
	r := rand.New(rand.NewPCG(opts.Seed, 0x5e55))
	g := &gen{opts: opts, r: r, t: text{r}, clock: time.Date(2026, 2, 16, 10, 20, 30, 0, time.UTC), model: "claude-sonnet-4-5"}
	ids := rand.NewChaCha8([32]byte{byte(opts.Seed), byte(opts.Seed >> 8), byte(opts.Seed >> 16), byte(opts.Seed >> 24), 's', 'g'})
	m, err := session.Create(session.Options{Cwd: opts.Cwd, Dir: opts.Dir, BlobDir: opts.BlobDir, Sync: session.SyncOnFlush,
		Now: func() time.Time { return g.clock }, Rand: ids})
	if err != nil {
		return Stats{}, fmt.Errorf("sessiongen: %w", err)
	}
	g.m = m
	err = g.run()
	if cerr := m.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Stats{}, fmt.Errorf("sessiongen: %w", err)
	}
	fi, err := os.Stat(m.File())
	if err != nil {
		return Stats{}, fmt.Errorf("sessiongen: %w", err)
	}
	g.stats.Path, g.stats.Entries, g.stats.Bytes, g.stats.ContextTokens = m.File(), len(m.Entries()), fi.Size(), g.ctxTokens()
	return g.stats, nil
}

func (g *gen) run() error {
	if err := g.record(g.m.Record(session.ModelChange{Model: "anthropic/" + g.model, Role: ""})); err != nil {
		return err
	}
	if err := g.record(g.m.Record(session.ThinkingLevel("medium"))); err != nil {
		return err
	}
	for g.count < g.opts.Entries {
		if err := g.turn(); err != nil {
			return err
		}
		if g.ctxTokens() > g.opts.CompactAt {
			if err := g.compact(); err != nil {
				return err
			}
			if g.count >= g.opts.Entries {
				// End on an answer, not on a compaction.
				if err := g.turn(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// tick advances the clock by a few seconds and returns it in Unix ms.
func (g *gen) tick() int64 {
	g.clock = g.clock.Add(time.Duration(1+g.r.IntN(20)) * time.Second)
	return g.clock.UnixMilli()
}

// record counts an appended entry that is not part of the context.
func (g *gen) record(id string, err error) error {
	_, err = g.entry(id, err)
	return err
}

// entry counts an appended entry and returns it.
func (g *gen) entry(id string, err error) (*session.Entry, error) {
	if err != nil {
		return nil, err
	}
	e := g.m.Entry(id)
	g.count++
	if raw := e.Raw(); raw != nil {
		g.written += int64(len(raw) + 1)
	}
	return e, nil
}

// add appends a message entry that is part of the context.
func (g *gen) add(msg ai.Message, tokens int) (*session.Entry, error) {
	g.tick()
	e, err := g.entry(g.m.AppendMessage(msg))
	if err != nil {
		return nil, err
	}
	_, user := msg.(*ai.UserMessage)
	g.ctx = append(g.ctx, node{id: e.ID, parent: e.ParentID, tokens: tokens, user: user})
	return e, nil
}

func (g *gen) ctxTokens() int {
	n := 0
	for _, c := range g.ctx {
		n += c.tokens
	}
	return n
}

// tokens estimates the tokens of a text (four bytes each).
func tokens(s string) int { return len(s)/4 + 1 }

// turn writes the state changes and side entries that precede a prompt,
// maybe a branch back, then the prompt, the assistant's rounds and its
// answer.
func (g *gen) turn() error {
	if err := g.between(); err != nil {
		return err
	}
	user, err := g.prompt()
	if err != nil {
		return err
	}
	if g.r.IntN(50) == 0 {
		if err := g.record(g.m.Record(session.Label{TargetID: user.ID, Label: g.t.word() + "-" + g.t.word()})); err != nil {
			return err
		}
	}
	rounds := 1
	for rounds < 20 && g.r.IntN(4) != 0 {
		rounds++
	}
	for range rounds {
		if err := g.round(); err != nil {
			return err
		}
	}
	text := g.t.prose(g.t.logNormal(500, 60, 6000))
	content := ai.ContentList{}
	if g.r.IntN(2) == 0 {
		content = append(content, g.thinking())
	}
	content = append(content, ai.Text(text))
	_, err = g.add(g.assistant(content, ai.StopReasonStop), tokens(text))
	return err
}

// between writes what happens between turns: setting changes, extension
// entries, the user's shell commands, going back to an earlier prompt.
func (g *gen) between() error {
	switch {
	case g.r.IntN(60) == 0:
		g.tick()
		if g.model == "claude-sonnet-4-5" {
			g.model = "claude-opus-4-1"
		} else {
			g.model = "claude-sonnet-4-5"
		}
		if err := g.record(g.m.Record(session.ModelChange{Model: "anthropic/" + g.model, Role: ""})); err != nil {
			return err
		}
	case g.r.IntN(60) == 0:
		g.tick()
		if err := g.record(g.m.Record(session.ThinkingLevel([]string{"low", "medium", "high"}[g.r.IntN(3)]))); err != nil {
			return err
		}
	case g.r.IntN(100) == 0:
		g.tick()
		g.plan = !g.plan
		mode, data := "none", any(nil)
		if g.plan {
			mode, data = "plan", map[string]any{"planFile": ".gopi/plans/" + g.t.word() + ".md"}
		}
		if err := g.record(g.m.Record(session.ModeSwitch(mode, data))); err != nil {
			return err
		}
	}
	if g.r.IntN(8) == 0 {
		g.tick()
		state := map[string]any{"turn": g.count, "files": []string{paths[g.r.IntN(len(paths))], paths[g.r.IntN(len(paths))]}, "note": g.t.sentence(6)}
		if err := g.record(g.m.Record(session.CustomState("workspace-tracker", state))); err != nil {
			return err
		}
	}
	if g.r.IntN(70) == 0 {
		g.tick()
		if err := g.record(g.m.Record(session.TTSRInjection{InjectedRules: []string{"no-" + g.t.word(), "prefer-" + g.t.word()}})); err != nil {
			return err
		}
	}
	if g.r.IntN(50) == 0 {
		g.tick()
		s := g.t.sentence(10 + g.r.IntN(30))
		e, err := g.entry(g.m.Record(session.CustomMessage{CustomType: "reminder", Content: message.PlainText(s), Attribution: "agent"}))
		if err != nil {
			return err
		}
		g.ctx = append(g.ctx, node{id: e.ID, parent: e.ParentID, tokens: tokens(s)})
	}
	if g.r.IntN(30) == 0 {
		out := g.t.logOutput(g.t.logNormal(600, 20, 20000))
		code := g.r.IntN(3) / 2
		if _, err := g.add(&message.BashExecution{Command: "go test ./" + g.t.word() + "/...", Output: out, ExitCode: &code, Timestamp: g.clock.UnixMilli()}, tokens(out)); err != nil {
			return err
		}
	}
	if g.r.IntN(40) == 0 {
		return g.branch()
	}
	return nil
}

// branch moves the leaf back to before an earlier prompt of the context
// (after the latest compaction), with a branch summary most of the time.
func (g *gen) branch() error {
	var users []int
	for i := g.post; i < len(g.ctx); i++ {
		if g.ctx[i].user && g.ctx[i].parent != "" {
			users = append(users, i)
		}
	}
	if len(users) < 3 {
		return nil
	}
	at := users[g.r.IntN(len(users)-1)] // never the latest prompt: something is left behind
	from := g.ctx[at].parent
	g.ctx = g.ctx[:at]
	g.stats.Branches++
	g.tick()
	if g.r.IntN(10) < 7 {
		s := "The abandoned branch tried another approach: " + g.t.prose(g.t.logNormal(400, 80, 3000))
		e, err := g.entry(g.m.BranchWithSummary(from, s, map[string]any{"readFiles": []string{paths[g.r.IntN(len(paths))]}}, false))
		if err != nil {
			return err
		}
		g.ctx = append(g.ctx, node{id: e.ID, parent: e.ParentID, tokens: tokens(s)})
		return nil
	}
	return g.m.Branch(from)
}

// prompt writes the user's prompt: a sentence or three, sometimes a pasted
// log or a screenshot.
func (g *gen) prompt() (*session.Entry, error) {
	s := ""
	for range 1 + g.r.IntN(3) {
		s += g.t.sentence(5+g.r.IntN(20)) + " "
	}
	if g.r.IntN(40) == 0 {
		s += "\n\n```\n" + g.t.logOutput(g.t.logNormal(2000, 200, 12000)) + "```\n"
	}
	content := ai.ContentList{ai.Text(s)}
	n := tokens(s)
	if g.r.IntN(150) == 0 {
		content = append(content, g.screenshot())
		n += 1500
		g.stats.Images++
	}
	return g.add(&ai.UserMessage{Content: content, Attribution: "user", Timestamp: g.tick()}, n)
}

// screenshot returns a small noisy PNG image.
func (g *gen) screenshot() *ai.ImageContent {
	img := image.NewNRGBA(image.Rect(0, 0, 96+g.r.IntN(96), 64+g.r.IntN(64)))
	for i := range img.Pix {
		img.Pix[i] = uint8(g.r.IntN(256))
	}
	for x := range img.Rect.Dx() {
		img.Set(x, 0, color.Black)
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img) // writing to memory does not fail
	return &ai.ImageContent{Data: base64.StdEncoding.EncodeToString(b.Bytes()), MIMEType: "image/png"}
}

// thinking is a thinking block with its signature.
func (g *gen) thinking() *ai.ThinkingContent {
	return &ai.ThinkingContent{Thinking: g.t.prose(g.t.logNormal(180, 30, 3000)), ThinkingSignature: g.t.signature(200 + g.r.IntN(300))}
}

// assistant is an assistant message whose usage reports the context so
// far plus the message's own tokens.
func (g *gen) assistant(content ai.ContentList, stop ai.StopReason) *ai.AssistantMessage {
	out := 0
	for _, c := range content {
		switch c := c.(type) {
		case *ai.TextContent:
			out += tokens(c.Text)
		case *ai.ThinkingContent:
			out += tokens(c.Thinking)
		case *ai.ToolCall:
			a, _ := json.Marshal(c.Arguments)
			out += tokens(string(a))
		}
	}
	prompt := 4000 + g.ctxTokens() // system prompt and tools, then the conversation
	fresh := min(prompt, 50+g.r.IntN(3000))
	u := ai.Usage{Input: 3 + g.r.IntN(20), Output: out, CacheRead: prompt - fresh, CacheWrite: fresh}
	u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
	u.Cost = ai.Cost{Input: float64(u.Input) * 3e-6, Output: float64(u.Output) * 15e-6, CacheRead: float64(u.CacheRead) * 0.3e-6, CacheWrite: float64(u.CacheWrite) * 3.75e-6}
	u.Cost.Total = u.Cost.Input + u.Cost.Output + u.Cost.CacheRead + u.Cost.CacheWrite
	ts := g.tick()
	return &ai.AssistantMessage{Content: content, API: "anthropic-messages", Provider: "anthropic", Model: g.model, Usage: u,
		StopReason: stop, ResponseID: fmt.Sprintf("msg_%016x", g.r.Uint64()), Timestamp: ts, Duration: int64(800 + g.r.IntN(20000)), TTFT: int64(300 + g.r.IntN(2000))}
}

// round is one assistant message with tool calls and their results.
func (g *gen) round() error {
	content := ai.ContentList{}
	if g.r.IntN(10) < 6 {
		content = append(content, g.thinking())
	}
	if g.r.IntN(10) < 3 {
		content = append(content, ai.Text(g.t.sentence(6+g.r.IntN(25))))
	}
	n := 1
	if k := g.r.IntN(10); k >= 9 {
		n = 3 + g.r.IntN(2)
	} else if k >= 7 {
		n = 2
	}
	var calls []*ai.ToolCall
	for range n {
		c := g.call()
		calls = append(calls, c)
		content = append(content, c)
	}
	a := g.assistant(content, ai.StopReasonToolUse)
	if _, err := g.add(a, a.Usage.Output); err != nil {
		return err
	}
	for _, c := range calls {
		if err := g.result(c); err != nil {
			return err
		}
	}
	return nil
}

// call is a tool call with arguments of the kind the tool takes.
func (g *gen) call() *ai.ToolCall {
	g.calls++
	path := paths[g.r.IntN(len(paths))]
	c := &ai.ToolCall{ID: fmt.Sprintf("toolu_%012d%08x", g.calls, g.r.Uint32())}
	switch k := g.r.IntN(100); {
	case k < 38:
		c.Name, c.Arguments = "read", map[string]any{"path": path}
		if g.r.IntN(3) == 0 {
			c.Arguments["offset"], c.Arguments["limit"] = float64(1+g.r.IntN(500)), float64(100+g.r.IntN(300))
		}
	case k < 63:
		c.Name, c.Arguments = "bash", map[string]any{"command": []string{"go test ./...", "go vet ./...", "git diff --stat", "make build", "npm test -- --run", "git log --oneline -20"}[g.r.IntN(6)]}
		if g.r.IntN(4) == 0 {
			c.Arguments["timeout"] = float64(120)
		}
	case k < 80:
		var lines []any
		for range 1 + g.r.IntN(12) {
			lines = append(lines, g.t.codeLine())
		}
		c.Name, c.Arguments = "edit", map[string]any{"path": path, "edits": []any{map[string]any{
			"op": "replace", "pos": fmt.Sprintf("%d#%02x", 1+g.r.IntN(400), g.r.IntN(256)), "end": fmt.Sprintf("%d#%02x", 401+g.r.IntN(400), g.r.IntN(256)), "lines": lines}}}
	case k < 90:
		c.Name, c.Arguments = "search", map[string]any{"pattern": g.t.word() + `\(`, "path": "."}
	case k < 94:
		c.Name, c.Arguments = "find", map[string]any{"pattern": "**/*" + g.t.word() + "*"}
	case k < 98:
		c.Name, c.Arguments = "write", map[string]any{"path": path, "content": g.t.code(g.t.logNormal(1500, 100, 20000), false)}
	default:
		c.Name, c.Arguments = "todo_write", map[string]any{"todos": []any{
			map[string]any{"content": g.t.sentence(5), "status": "completed"}, map[string]any{"content": g.t.sentence(6), "status": "in_progress"}}}
	}
	return c
}

// bigSize is the size of a result of a size-driven tool (read, bash,
// search, find), steered so that the file reaches Options.Bytes at
// Options.Entries entries.
func (g *gen) bigSize() int {
	frac := 0.35
	if g.count > 200 {
		frac = float64(g.big) / float64(g.count)
	}
	other := 900.0
	if n := g.count - g.big; n > 200 && g.written > g.bigBytes {
		other = float64(g.written-g.bigBytes) / float64(n)
	}
	left := float64(g.opts.Entries - g.count)
	budget := 2000.0
	if left > 0 && g.opts.Bytes > 0 {
		budget = (float64(g.opts.Bytes-g.written) - left*(1-frac)*other) / max(1, left*frac)
	}
	budget = min(48000, max(100, budget))
	return g.t.logNormal(int(budget/1.65), 40, 48000) // a log-normal's mean is 1.65 × its median
}

// result writes the tool result of a call.
func (g *gen) result(c *ai.ToolCall) error {
	var out string
	var details any
	isErr := g.r.IntN(25) == 0
	big := false
	switch c.Name {
	case "read":
		big = true
		out = g.t.code(g.bigSize(), true)
		details = map[string]any{"path": c.Arguments["path"], "resolvedPath": g.opts.Cwd + "/" + c.Arguments["path"].(string)}
	case "bash":
		big = true
		out = g.t.logOutput(g.bigSize())
		details = map[string]any{"exitCode": g.r.IntN(2), "durationMs": g.r.IntN(30000)}
	case "search":
		big = true
		out = g.t.matches(g.bigSize())
		details = map[string]any{"matchCount": g.r.IntN(300), "fileCount": g.r.IntN(40)}
	case "find":
		big = true
		for len(out) < g.bigSize()/4 {
			out += paths[g.r.IntN(len(paths))] + "\n"
		}
	case "edit":
		diff := ""
		for range 2 + g.r.IntN(10) {
			diff += "-" + g.t.codeLine() + "\n+" + g.t.codeLine() + "\n"
		}
		out = fmt.Sprintf("Updated %s\n%s", c.Arguments["path"], diff)
		details = map[string]any{"diff": "@@ -10,6 +10,8 @@\n" + diff, "firstChangedLine": 10 + g.r.IntN(300)}
	case "write":
		out = fmt.Sprintf("Wrote %d bytes to %s", len(c.Arguments["content"].(string)), c.Arguments["path"])
	default:
		out = "Todos updated: 1 completed, 1 in progress."
	}
	if isErr {
		out = "Error: " + g.t.sentence(8) + "\n" + out[:min(len(out), 300)]
		details = nil
	}
	before := g.written
	if _, err := g.add(&ai.ToolResultMessage{ToolCallID: c.ID, ToolName: c.Name, Content: ai.ContentList{ai.Text(out)}, Details: details,
		IsError: isErr, Timestamp: g.clock.UnixMilli()}, tokens(out)); err != nil {
		return err
	}
	if big {
		g.big++
		g.bigBytes += g.written - before
	}
	return nil
}

// compact writes a compaction that keeps about KeepRecent tokens, from a
// prompt of the context on, as the agent does after a turn.
func (g *gen) compact() error {
	keep, n := len(g.ctx), 0
	for i := len(g.ctx) - 1; i >= g.post && n < g.opts.KeepRecent; i-- {
		n += g.ctx[i].tokens
		keep = i
	}
	for keep > g.post && !g.ctx[keep].user {
		keep-- // start the kept part at a prompt
	}
	if keep <= 0 || keep >= len(g.ctx) {
		keep = len(g.ctx) - 1
	}
	before := g.ctxTokens()
	summary := "## Goal\n" + g.t.sentence(20) + "\n\n## Progress\n" + g.t.prose(g.t.logNormal(3000, 800, 12000)) + "\n\n## Next steps\n" + g.t.prose(400)
	var read, modified []string
	for range 2 + g.r.IntN(10) {
		read = append(read, paths[g.r.IntN(len(paths))])
	}
	for range 1 + g.r.IntN(5) {
		modified = append(modified, paths[g.r.IntN(len(paths))])
	}
	details, _ := json.Marshal(map[string]any{"readFiles": read, "modifiedFiles": modified})
	g.tick()
	e, err := g.entry(g.m.Record(session.Compaction{Summary: summary, ShortSummary: g.t.sentence(8), FirstKeptEntryID: g.ctx[keep].id,
		TokensBefore: before, Details: details}))
	if err != nil {
		return err
	}
	kept := append([]node{{id: e.ID, parent: e.ParentID, tokens: tokens(summary)}}, g.ctx[keep:]...)
	g.ctx, g.post = kept, len(kept)
	g.stats.Compactions++
	return nil
}
