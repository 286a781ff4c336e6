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

// Choices are the options a question offers, in this order.
func Choices(req Request) []Choice {
	s := req.Subject()
	return []Choice{
		{AllowOnce, "Allow once"},
		{AllowAlways, fmt.Sprintf("Always allow %s in this session", s)},
		{RejectOnce, "Reject"},
		{RejectAlways, fmt.Sprintf("Always reject %s in this session", s)},
	}
}

// Title is a question's text: which agent wants to run what, and the
// call itself.
func Title(req Request) string {
	who := "The agent"
	if req.Agent != "" {
		who = "Subagent " + req.Agent
	}
	return fmt.Sprintf("%s wants to run %s. Allow it?\n%s", who, req.Tool, Describe(req))
}

// describeLimit is how much of a call's text a question shows; past it
// the question says how much it left out, so that nothing is hidden
// silently (a long command's dangerous tail).
const describeLimit = 2000

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
	return cut(s, describeLimit)
}

// str returns a string argument.
func str(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

// cut keeps the first n bytes of s (at a rune boundary) and says how many
// it dropped.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := n
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return strings.TrimRight(s[:k], " \n") + fmt.Sprintf("\n… (%d more bytes not shown)", len(s)-k)
}
