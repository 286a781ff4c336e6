package plugins

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/message"
)

// HookContextType is the custom type of the message that carries the
// output of UserPromptSubmit and SessionStart hooks to the model.
const HookContextType = "plugin-hook-context"

// SessionHooks runs the plugins' hooks.json commands of session events,
// mapped onto gopi's:
//   - SessionStart (matcher on "startup" or "resume"): when the session
//     starts (Start); its output joins the model's context with the first
//     prompt.
//   - UserPromptSubmit: before each prompt's run, given the prompt; its
//     output (plain text, or hookSpecificOutput.additionalContext) joins
//     the context. Exit status 2 cannot refuse the prompt in gopi: its
//     reason is only added as context.
//   - Stop: when a run of the agent ends (RunEnded); a "block" answer
//     cannot make gopi go on.
//   - PreCompact (matcher on "manual" or "auto"): before a compaction;
//     gopi's hook point does not say who asked, so a compaction with
//     instructions counts as manual and one without as auto.
//   - SessionEnd: when the session closes (End).
type SessionHooks struct {
	hooks []CommandHook
	env   HookEnv

	// life ends with Terminate: running hooks are stopped, and SessionEnd
	// hooks get EndGrace instead of their own timeouts.
	life      context.Context
	terminate context.CancelFunc

	mu      sync.Mutex
	started []string // SessionStart output the first prompt carries
}

// SessionHooks returns the session-event hooks of the plugins; nil when
// they have none.
func (c *Contributions) SessionHooks(env HookEnv) *SessionHooks {
	if c == nil {
		return nil
	}
	var hs []CommandHook
	for _, h := range c.CommandHooks {
		if h.Event != "PreToolUse" && h.Event != "PostToolUse" {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		return nil
	}
	life, terminate := context.WithCancel(context.Background())
	return &SessionHooks{hooks: hs, env: env, life: life, terminate: terminate}
}

// EndGrace bounds the SessionEnd hooks of a session closing after
// Terminate (the process was told to end).
const EndGrace = 1500 * time.Millisecond

// Terminate says the process is ending (SIGTERM, say): a hook running
// now is stopped with its process group, and SessionEnd hooks still to
// come get EndGrace. Without it a Stop or SessionEnd hook that does not
// end held gopi for the hook's whole timeout.
func (s *SessionHooks) Terminate() {
	if s != nil {
		s.terminate()
	}
}

// SetEnv changes what the hooks run with (the session, once it exists).
func (s *SessionHooks) SetEnv(env HookEnv) {
	if s != nil {
		s.mu.Lock()
		s.env = env
		s.mu.Unlock()
	}
}

// runAll runs the hooks of event whose matcher accepts match ("" for
// events without one) with the event's fields, and returns their runs.
func (s *SessionHooks) runAll(ctx context.Context, event, match string, in map[string]any) []hookRun {
	if s == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	return s.runEvent(ctx, event, match, in)
}

// runEvent is runAll under ctx alone (Terminate does not stop it).
func (s *SessionHooks) runEvent(ctx context.Context, event, match string, in map[string]any) []hookRun {
	s.mu.Lock()
	env := s.env
	s.mu.Unlock()
	var out []hookRun
	for _, h := range s.hooks {
		if h.Event != event || (match != "" && h.Matcher != nil && !h.Matcher.MatchString(match)) {
			continue
		}
		fields := map[string]any{}
		for k, v := range in {
			fields[k] = v
		}
		out = append(out, h.exec(ctx, env, fields))
	}
	return out
}

// contextOf is what runs add to the model's context: additionalContext
// from a JSON answer, else plain standard output, or the reason given
// with exit status 2.
func contextOf(runs []hookRun) []string {
	var out []string
	for _, r := range runs {
		var text string
		switch {
		case r.blocked:
			text = r.stderr
		case r.err != nil:
		default:
			if d := r.decision(); d.Specific.AdditionalContext != "" {
				text = d.Specific.AdditionalContext
			} else if t := strings.TrimSpace(r.stdout); !strings.HasPrefix(t, "{") {
				text = t
			}
		}
		if text = strings.TrimSpace(text); text != "" {
			out = append(out, forModel(text))
		}
	}
	return out
}

// Start runs the SessionStart hooks; source is "startup" for a new
// session, "resume" for a continued one.
func (s *SessionHooks) Start(ctx context.Context, source string) {
	if s == nil {
		return
	}
	texts := contextOf(s.runAll(ctx, "SessionStart", source, map[string]any{"source": source}))
	s.mu.Lock()
	s.started = append(s.started, texts...)
	s.mu.Unlock()
}

// RunEnded runs the Stop hooks.
func (s *SessionHooks) RunEnded(ctx context.Context) {
	s.runAll(ctx, "Stop", "", map[string]any{"stop_hook_active": false})
}

// End runs the SessionEnd hooks; after Terminate they have EndGrace.
func (s *SessionHooks) End(ctx context.Context, reason string) {
	if s == nil {
		return
	}
	if s.life.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), EndGrace)
		defer cancel()
		s.runEvent(ctx, "SessionEnd", "", map[string]any{"reason": reason})
		return
	}
	s.runAll(ctx, "SessionEnd", "", map[string]any{"reason": reason})
}

// AgentHooks are the loop hooks of UserPromptSubmit (with the pending
// SessionStart output) and PreCompact; nil when s is.
func (s *SessionHooks) AgentHooks() *agent.Hooks {
	if s == nil {
		return nil
	}
	return &agent.Hooks{
		Name: "plugin hooks.json session events",
		BeforeAgentStart: func(ctx context.Context, prompt []ai.Message) (ai.Message, error) {
			s.mu.Lock()
			texts := s.started
			s.started = nil
			s.mu.Unlock()
			texts = append(texts, contextOf(s.runAll(ctx, "UserPromptSubmit", "", map[string]any{"prompt": promptText(prompt)}))...)
			if len(texts) == 0 {
				return nil, nil
			}
			return &message.Custom{CustomType: HookContextType, Content: message.PlainText(strings.Join(texts, "\n\n")), Display: false, Attribution: "agent"}, nil
		},
		SessionBeforeCompact: func(ctx context.Context, ev *compaction.BeforeCompactEvent) (*compaction.BeforeCompactResult, error) {
			trigger := "manual"
			if ev.CustomInstructions == "" {
				trigger = "auto"
			}
			s.runAll(ctx, "PreCompact", trigger, map[string]any{"trigger": trigger, "custom_instructions": ev.CustomInstructions})
			return nil, nil
		},
	}
}

// promptText is the text of the prompt's user messages.
func promptText(prompt []ai.Message) string {
	var parts []string
	for _, m := range prompt {
		if u, ok := m.(*ai.UserMessage); ok {
			for _, c := range u.Content {
				if t, ok := c.(*ai.TextContent); ok {
					parts = append(parts, t.Text)
				}
			}
		}
	}
	return strings.Join(parts, "\n")
}
