package permission

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/tool"
)

// DialogAsker asks through a UI's select dialog: the TUI's picker, or an
// RPC host's extension_ui_request (method "select"). The dialog has no
// timeout: it waits for the user, or for the call's context to end.
type DialogAsker struct{ UI tool.UI }

// Ask shows the question and maps the chosen option back to its answer;
// an option the dialog did not offer counts as a rejection.
func (d DialogAsker) Ask(ctx context.Context, req Request) (Answer, error) {
	choices := Choices(req)
	labels := make([]string, len(choices))
	for i, c := range choices {
		labels[i] = c.Label
	}
	picked, err := d.UI.Select(ctx, Title(req), labels, 0)
	if err != nil {
		return "", err
	}
	for _, c := range choices {
		if c.Label == picked {
			return c.Answer, nil
		}
	}
	return RejectOnce, nil
}

// Choice is one option of a question.
type Choice struct {
	Answer Answer
	Label  string
}

// Choices are the options a question offers, in this order. The lasting
// answers name the tool whose permission is remembered, and the called
// tool too when that is another.
func Choices(req Request) []Choice {
	s := req.Subject()
	if req.Tool != "" && req.Tool != s {
		// The answer is remembered for the subject, so it holds for the
		// subject's own calls as well as for this tool's (recipe runs
		// through bash: always allowing it allows every bash command).
		s += " and " + req.Tool
	}
	return []Choice{
		{AllowOnce, "Allow once"},
		{AllowAlways, fmt.Sprintf("Always allow %s in this session", s)},
		{RejectOnce, "Reject"},
		{RejectAlways, fmt.Sprintf("Always reject %s in this session", s)},
	}
}

// Title is a question's text: which agent wants to run what (and whose
// permission that needs, when it is another tool's), and the call itself.
func Title(req Request) string {
	who := "The agent"
	if req.Agent != "" {
		who = "Subagent " + req.Agent
	}
	what := req.Tool
	if s := req.Subject(); s != "" && s != req.Tool {
		what += ", which needs " + s + "'s permission"
	}
	return fmt.Sprintf("%s wants to run %s. Allow it?\n%s", who, what, Describe(req))
}

// How much of a call a question shows: at most describeLines lines and
// describeBytes bytes. What is left out is taken from the middle and
// counted in its place, so that the start and the end of a long command
// (where a dangerous tail would hide) both stay in view.
const (
	describeLines = 24
	describeBytes = 2000
)

// Describe says in a few lines what a call does: its summary, the command
// of a bash call, the path of a file tool, else its arguments as JSON.
func Describe(req Request) string {
	var s string
	switch {
	case req.Access.Summary != "":
		s = req.Access.Summary
	case req.Tool == "bash":
		s = "$ " + str(req.Args, "command")
		if cwd := str(req.Args, "cwd"); cwd != "" {
			s += "\n(in " + cwd + ")"
		}
		if env, ok := req.Args["env"].(map[string]any); ok && len(env) > 0 {
			keys := slices.Sorted(maps.Keys(env))
			for i, k := range keys {
				keys[i] = fmt.Sprintf("%s=%v", k, env[k])
			}
			s += "\n(with " + strings.Join(keys, " ") + ")"
		}
	case str(req.Args, "path") != "" && (req.Tool == "write" || req.Tool == "edit"):
		s = req.Tool + " " + str(req.Args, "path")
	default:
		b, err := json.Marshal(req.Args)
		if err != nil {
			b = []byte(fmt.Sprint(req.Args))
		}
		s = string(b)
	}
	return elide(s)
}

// str returns a string argument.
func str(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

// elide shortens s to describeLines lines and describeBytes bytes,
// keeping its head and its tail and saying what it left out between them.
func elide(s string) string {
	if lines := strings.Split(s, "\n"); len(lines) > describeLines {
		head, tail := describeLines*2/3, describeLines/3-1
		s = strings.Join(lines[:head], "\n") + fmt.Sprintf("\n… (%d lines not shown) …\n", len(lines)-head-tail) + strings.Join(lines[len(lines)-tail:], "\n")
	}
	if len(s) <= describeBytes {
		return s
	}
	head, tail := describeBytes*3/4, describeBytes/4
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	from := len(s) - tail
	for from < len(s) && !utf8.RuneStart(s[from]) {
		from++
	}
	return s[:head] + fmt.Sprintf("\n… (%d bytes not shown) …\n", from-head) + s[from:]
}
