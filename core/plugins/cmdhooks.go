package plugins

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/childproc"
)

// Claude Code's command hooks (hooks/hooks.json, or the manifest's
// "hooks"): a shell command run before (PreToolUse) or after
// (PostToolUse) a tool call whose name the matcher (a regular expression)
// matches, given the call as JSON on standard input. Before a call, exit
// status 2 or a "block"/"deny" decision on standard output refuses it
// with the reason; after a call, the same adds the reason to the result
// the model sees. Other failures are ignored, as Claude Code ignores them.
//
// The session events gopi has run too (session.go): UserPromptSubmit and
// SessionStart (their output joins the model's context), Stop, PreCompact
// and SessionEnd. SubagentStop and Notification are read and not run:
// gopi has no hook point for them.

// DefaultHookTimeout bounds one hook command unless it sets "timeout"
// (seconds).
const DefaultHookTimeout = 60 * time.Second

// maxHookTimeout is the longest "timeout" a hook may ask for (more would
// not fit a duration).
const maxHookTimeout = 24 * time.Hour

// Bounds of what a hook prints: maxHookOutput bytes of each stream are
// kept (the rest is read and dropped, so the hook never blocks on a full
// pipe), and at most maxHookContext bytes of it reach the model, as
// context or as a refusal's reason.
const (
	maxHookOutput  = 1 << 20
	maxHookContext = 10_000
)

// CommandHook is one command of a plugin's hooks.json.
type CommandHook struct {
	Plugin  ID
	Root    string         // the plugin's directory (CLAUDE_PLUGIN_ROOT)
	Event   string         // one of hookEvents
	Matcher *regexp.Regexp // nil matches every tool (or source, trigger)
	// Command is run by sh as written: ${CLAUDE_PLUGIN_ROOT} is the
	// shell's to expand (from the environment), never pasted into the
	// text, where a directory name could read as shell syntax.
	Command string
	Timeout time.Duration
}

// hookEvents are the hooks.json events gopi runs.
var hookEvents = []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop", "PreCompact", "SessionEnd"}

// claudeToolNames are Claude Code's names of gopi's tools, which
// matchers written for Claude Code use.
var claudeToolNames = map[string]string{
	"bash": "Bash", "read": "Read", "write": "Write", "edit": "Edit", "search": "Grep", "find": "Glob",
	"web_search": "WebSearch", "fetch": "WebFetch", "task": "Task", "todo_write": "TodoWrite", "notebook": "NotebookEdit",
}

// collectCommandHooks reads the plugin's hooks.json (the manifest's
// hooks, else hooks/hooks.json).
func (c *Contributions) collectCommandHooks(r Root, man *Manifest) {
	doc, file, ok := c.componentFile(r, man.Hooks, "hooks/hooks.json")
	if !ok {
		return
	}
	if nested, has := doc["hooks"]; has {
		doc = nil
		if err := json.Unmarshal(nested, &doc); err != nil {
			c.warn(r, "%s: \"hooks\" is not an object (left out)", file)
			return
		}
	}
	for _, event := range hookEvents {
		var groups []struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string  `json:"type"`
				Command string  `json:"command"`
				Timeout float64 `json:"timeout"`
			} `json:"hooks"`
		}
		if raw, ok := doc[event]; !ok {
			continue
		} else if err := json.Unmarshal(raw, &groups); err != nil {
			c.warn(r, "%s: %s: %v (left out)", file, event, err)
			continue
		}
		for _, g := range groups {
			var re *regexp.Regexp
			if m := strings.TrimSpace(g.Matcher); m != "" && m != "*" {
				var err error
				if re, err = regexp.Compile("^(?:" + m + ")$"); err != nil {
					c.warn(r, "%s: %s matcher %q: %v (left out)", file, event, m, err)
					continue
				}
			}
			for _, h := range g.Hooks {
				if h.Type != "command" || strings.TrimSpace(h.Command) == "" {
					continue
				}
				timeout := DefaultHookTimeout
				if h.Timeout > 0 {
					timeout = maxHookTimeout
					if h.Timeout < maxHookTimeout.Seconds() {
						timeout = time.Duration(h.Timeout * float64(time.Second))
					}
				}
				c.CommandHooks = append(c.CommandHooks, CommandHook{Plugin: r.ID, Root: r.Path, Event: event, Matcher: re, Command: h.Command, Timeout: timeout})
			}
		}
	}
}

// matches reports whether the hook applies to a tool.
func (h CommandHook) matches(name string) bool {
	if h.Matcher == nil {
		return true
	}
	return h.Matcher.MatchString(name) || (claudeToolNames[name] != "" && h.Matcher.MatchString(claudeToolNames[name]))
}

// HookEnv is what command hooks run with.
type HookEnv struct {
	Cwd     string   // the project (CLAUDE_PROJECT_DIR and the hooks' directory)
	Environ []string // the environment
	// Session gives the session's id and file for the hooks' input (nil:
	// both empty).
	Session func() (id, file string)
}

// AgentHooks turns the command hooks into loop hooks (one per hook).
func (c *Contributions) AgentHooks(env HookEnv) []*agent.Hooks {
	if c == nil {
		return nil
	}
	var out []*agent.Hooks
	for _, h := range c.CommandHooks {
		if h.Event != "PreToolUse" && h.Event != "PostToolUse" {
			continue // session events: SessionHooks
		}
		ah := &agent.Hooks{Name: "plugin " + h.Plugin.String() + " " + h.Event}
		switch h.Event {
		case "PreToolUse":
			ah.ToolCall = func(ctx context.Context, call *agent.ToolCallInfo) (*agent.ToolCallDecision, error) {
				if !h.matches(call.Name) {
					return nil, nil
				}
				if reason, block := h.run(ctx, env, call, nil); block {
					return &agent.ToolCallDecision{Block: true, Reason: reason}, nil
				}
				return nil, nil
			}
		case "PostToolUse":
			ah.ToolResult = func(ctx context.Context, call *agent.ToolCallInfo, res *tool.Result) (*agent.ToolResultOverride, error) {
				if !h.matches(call.Name) {
					return nil, nil
				}
				reason, block := h.run(ctx, env, call, res)
				if !block {
					return nil, nil
				}
				content := append(append([]ai.Content(nil), res.Content...), &ai.TextContent{Text: "Hook feedback (" + h.Plugin.String() + "): " + reason})
				return &agent.ToolResultOverride{Content: content}, nil
			}
		}
		out = append(out, ah)
	}
	return out
}

// run runs the hook for a call (and its result, after the call); block
// says the hook refused it, with the reason.
func (h CommandHook) run(ctx context.Context, env HookEnv, call *agent.ToolCallInfo, res *tool.Result) (reason string, block bool) {
	name := call.Name
	if cn := claudeToolNames[name]; cn != "" {
		name = cn
	}
	in := map[string]any{"tool_name": name, "tool_input": call.Args}
	if res != nil {
		in["tool_response"] = map[string]any{"content": res.FirstText(), "isError": res.IsError}
	}
	out := h.exec(ctx, env, in)
	if out.blocked {
		return orDefault(out.stderr, h), true
	}
	if out.err != nil {
		return "", false
	}
	d := out.decision()
	switch {
	case d.Decision == "block":
		return orDefault(d.Reason, h), true
	case d.Specific.Decision == "deny":
		return orDefault(d.Specific.Reason, h), true
	}
	return "", false
}

// hookRun is what a hook command did.
type hookRun struct {
	stdout, stderr string
	blocked        bool  // exit status 2
	err            error // any other failure
}

// hookDecision is the JSON a hook may print.
type hookDecision struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	Specific struct {
		Decision          string `json:"permissionDecision"`
		Reason            string `json:"permissionDecisionReason"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// decision reads the hook's JSON answer (zero when it printed none).
func (r hookRun) decision() hookDecision {
	var d hookDecision
	_ = json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &d)
	return d
}

// exec runs the hook's command with the event's fields (in, plus the
// common ones) as JSON on standard input.
func (h CommandHook) exec(ctx context.Context, env HookEnv, in map[string]any) hookRun {
	in["hook_event_name"], in["cwd"] = h.Event, env.Cwd
	in["session_id"], in["transcript_path"] = "", ""
	if env.Session != nil {
		in["session_id"], in["transcript_path"] = env.Session()
	}
	data, _ := json.Marshal(in)
	ctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", h.Command)
	cmd.Dir = env.Cwd
	cmd.Env = append(append([]string(nil), env.Environ...), "CLAUDE_PLUGIN_ROOT="+h.Root, "OMP_PLUGIN_ROOT="+h.Root, "CLAUDE_PROJECT_DIR="+env.Cwd)
	cmd.Stdin = bytes.NewReader(data)
	stdout, stderr := &headBuffer{max: maxHookOutput}, &headBuffer{max: maxHookOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = time.Second
	childproc.PrepareCancelGroup(cmd) // a timeout takes the shell's children too
	err := cmd.Run()
	out := hookRun{stdout: stdout.String(), stderr: strings.TrimSpace(stderr.String()), err: err}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 && ctx.Err() == nil {
		out.blocked = true
	}
	return out
}

// orDefault returns reason (cut to maxHookContext), or a sentence naming
// the hook's plugin.
func orDefault(reason string, h CommandHook) string {
	if strings.TrimSpace(reason) != "" {
		return forModel(reason)
	}
	return fmt.Sprintf("blocked by a hook of plugin %s", h.Plugin)
}

// forModel cuts hook output meant for the model to maxHookContext bytes
// (at a UTF-8 boundary), saying so.
func forModel(s string) string {
	if len(s) <= maxHookContext {
		return s
	}
	cut := maxHookContext
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[hook output cut at %d of %d bytes]", cut, len(s))
}

// headBuffer keeps the first max bytes written to it and drops the rest.
type headBuffer struct {
	max int
	buf bytes.Buffer
}

// Write keeps what fits; it never fails, so the writer is drained.
func (b *headBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// String returns the bytes kept.
func (b *headBuffer) String() string { return b.buf.String() }
