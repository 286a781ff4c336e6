package commitagent

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/commitgen"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tools/task"
)

// maxReminders is how many times an agent that stopped without its
// proposal is asked again.
const maxReminders = 3

// AgentOptions configure one run of the commit agent.
type AgentOptions struct {
	Config     *config.Config   // the loaded configuration
	Models     *models.Registry // the model registry (credentials included)
	Model      *ai.Model        // the agent's model
	Thinking   ai.ThinkingLevel // its reasoning effort ("": the settings')
	HTTPClient *http.Client     // for provider requests; nil: a default one
	Stream     agent.StreamFunc // replaces the provider call (tests); nil: the registry's

	Repo       *commitgen.Repo   // the repository, Dir at its top
	Context    string            // the user's words about the change (-c)
	Changelogs []string          // changelog files that need entries, relative to Repo.Dir
	Existing   []ExistingEntries // their [Unreleased] entries
	StagedDiff string            // the staged diff the proposals are checked against

	Out  io.Writer // progress lines
	Live bool      // Out is a terminal: show the streaming text on one line
}

// RunAgent runs the commit agent until it has proposed a commit (and the
// changelog entries, when Changelogs are named), reminding it up to three
// times. The State holds whatever it proposed; an error means the session
// could not run (no model, no credentials) or a request failed for good.
func RunAgent(ctx context.Context, o AgentOptions) (*State, error) {
	state := &State{}
	var s *agentsession.Session // set before the first prompt, so before any tool runs
	analyze := func(ctx context.Context, file, assignment string) (string, error) {
		return runAnalyzer(ctx, s, file, assignment)
	}
	s, err := agentsession.New(ctx, agentsession.Options{
		Config: o.Config, Cwd: o.Repo.Dir, Models: o.Models,
		NoSession: true, NoSkills: true, NoRules: true, NoMCP: true, NoTitle: true,
		Model: o.Model, Thinking: o.Thinking, HTTPClient: o.HTTPClient, Stream: o.Stream,
		ToolNames:    []string{},
		ExtraTools:   Tools(o.Repo, state, o.Changelogs, o.StagedDiff, analyze),
		SystemPrompt: systemPrompt,
	})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	p := &progress{out: o.Out, live: o.Live, args: map[string]map[string]any{}}
	defer s.Subscribe(p.event)()

	need := len(o.Changelogs) > 0
	text := userPrompt(o.Context, o.Changelogs, o.Existing)
	for n := 0; n <= maxReminders; n++ {
		if n > 0 {
			missing := state.missing(need)
			if len(missing) == 0 {
				break
			}
			text = reminder(missing, n, maxReminders)
		}
		if err := s.Prompt(ctx, text, agentsession.PromptOptions{Attribution: "agent"}); err != nil {
			return state, err
		}
		// A run that ended on a failed request (after the session's own
		// retries) is the agent failing: reminding it would only repeat
		// the request.
		if last := s.LastAssistant(); last != nil && last.StopReason == ai.StopReasonError {
			msg := last.ErrorMessage
			if msg == "" {
				msg = "the model's request failed"
			}
			return state, fmt.Errorf("%s/%s: %s", o.Model.Provider, o.Model.ID, msg)
		}
	}
	return state, nil
}

// analyzerTools are the tools of analyze_files' subagents: they look,
// and change nothing.
var analyzerTools = []string{"read", "search", "find"}

// runAnalyzer runs one analyze_files subagent: a child session of s on
// the smol model with minimal thinking (omp's quick_task) and the
// read-only tools, and returns its answer.
func runAnalyzer(ctx context.Context, s *agentsession.Session, file, assignment string) (string, error) {
	child, err := s.NewChild(ctx, agentsession.ChildOptions{
		ToolNames:          analyzerTools,
		Models:             []string{"pi/smol"},
		Thinking:           ai.ThinkingMinimal,
		AppendSystemPrompt: analyzerPrompt,
		Position:           task.Position{Depth: 1, ID: "Analyze " + file},
	})
	if err != nil {
		return "", err
	}
	defer child.Close()
	if err := child.Prompt(ctx, assignment, agentsession.PromptOptions{Attribution: "agent"}); err != nil {
		return "", err
	}
	if last := child.LastAssistant(); last != nil && last.StopReason == ai.StopReasonError {
		return "", fmt.Errorf("%s", last.ErrorMessage)
	}
	return child.LastAssistantText(), nil
}

// The marks before a finished tool call: omp's glyphs, from the Nerd
// Font's private-use area (a check and a cross in a patched font).
const (
	markDone   = "\uf00c"
	markFailed = "\uf00d"
)

// progress prints the agent's work as omp's commit command does: each
// tool call with its arguments, the model's text, errors, and a line
// when a run ends.
type progress struct {
	out  io.Writer
	live bool

	mu       sync.Mutex
	messages int
	tools    int
	args     map[string]map[string]any // arguments by tool call id
	lineOpen bool                      // a live preview line is on screen
}

// event handles one session event.
func (p *progress) event(ev agent.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case agent.MessageUpdate:
		if p.live && e.Message != nil {
			if t := strings.Join(strings.Fields(e.Message.Text()), " "); t != "" {
				if r := []rune(t); len(r) > 40 {
					t = string(r[:39]) + "…"
				}
				fmt.Fprintf(p.out, "\r\x1b[2K\x1b[2m… %s\x1b[0m", t)
				p.lineOpen = true
			}
		}
	case agent.MessageEnd:
		m, ok := e.Message.(*ai.AssistantMessage)
		if !ok {
			return
		}
		p.messages++
		p.clearLine()
		if m.StopReason == ai.StopReasonError && m.ErrorMessage != "" {
			fmt.Fprintf(p.out, "● Error: %s\n", m.ErrorMessage)
		}
		if t := strings.TrimSpace(m.Text()); t != "" {
			for i, line := range strings.Split(t, "\n") {
				prefix := "  "
				if i == 0 {
					prefix = "● "
				}
				fmt.Fprintln(p.out, strings.TrimRight(prefix+line, " \t"))
			}
		}
	case agent.ToolExecutionStart:
		p.tools++
		p.args[e.ToolCallID] = e.Args
	case agent.ToolExecutionEnd:
		args := p.args[e.ToolCallID]
		delete(p.args, e.ToolCallID)
		p.clearLine()
		mark := markDone
		if e.IsError {
			mark = markFailed
		}
		fmt.Fprintf(p.out, "%s %s\n", mark, toolLabel(e.ToolName))
		if lines := argLines(args); len(lines) > 0 {
			for i, l := range lines {
				switch {
				case i == 0:
					fmt.Fprintf(p.out, "  ⎿ %s\n", l)
				case i == len(lines)-1:
					fmt.Fprintf(p.out, "    └ %s\n", l)
				default:
					fmt.Fprintf(p.out, "    ├ %s\n", l)
				}
			}
		}
	case agent.AgentEnd:
		p.clearLine()
		fmt.Fprintf(p.out, "● agent finished (%d messages, %d tools)\n", p.messages, p.tools)
	}
}

// clearLine erases the live preview line.
func (p *progress) clearLine() {
	if p.lineOpen {
		fmt.Fprint(p.out, "\r\x1b[2K")
		p.lineOpen = false
	}
}

// toolLabel turns git_file_diff into GitFileDiff.
func toolLabel(name string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// argLines flattens a call's arguments into "key.path: value" lines,
// leaving out empty values and the intent field.
func argLines(args map[string]any) []string {
	var lines []string
	var visit func(key string, v any)
	visit = func(key string, v any) {
		switch x := v.(type) {
		case nil:
		case []any:
			var parts []string
			for _, it := range x {
				if s := primitive(it); s != "" {
					parts = append(parts, s)
				}
			}
			if len(parts) > 0 {
				lines = append(lines, key+": "+strings.Join(parts, ", "))
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				visit(key+"."+k, x[k])
			}
		default:
			if s := primitive(x); s != "" {
				lines = append(lines, key+": "+s)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if k != "_i" {
			visit(k, args[k])
		}
	}
	return lines
}

// primitive renders a string, number or boolean; "" for anything else.
func primitive(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case bool, float64, int:
		return fmt.Sprint(x)
	case fmt.Stringer:
		return x.String()
	}
	return ""
}
