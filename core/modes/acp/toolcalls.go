package acp

import (
	"strings"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit/applypatch"
	"github.com/gopi-agent/gopi/core/tools/edit/hashedit"
	"github.com/gopi-agent/gopi/core/tools/read"
)

// toolCall is what the session knows of one tool call of the turn.
type toolCall struct {
	id, name string
	args     map[string]any
	started  bool // tool_execution_start was seen
	finished bool // tool_execution_end was seen
}

// toolKind maps gopi's tool names to the protocol's kinds (icons and
// grouping in the editor).
func toolKind(name string) sdk.ToolKind {
	switch name {
	case "read", "inspect_image":
		return sdk.ToolKindRead
	case "write", "edit", "ast_edit", "resolve":
		return sdk.ToolKindEdit
	case "search", "find", "ast_grep":
		return sdk.ToolKindSearch
	case "bash", "python", "eval", "recipe":
		return sdk.ToolKindExecute
	case "fetch", "web_search", "browser", "github":
		return sdk.ToolKindFetch
	}
	return sdk.ToolKindOther
}

// toolLabels are the tools' human titles (their Definition labels).
var toolLabels = map[string]string{
	"read": "Read", "write": "Write", "edit": "Edit", "search": "Search", "find": "Find",
	"ast_grep": "AST Grep", "ast_edit": "AST Edit", "resolve": "Resolve", "bash": "Run",
	"checkpoint": "Checkpoint", "rewind": "Rewind", "calc": "Calc",
	"recipe": "Run", "render_mermaid": "RenderMermaid", "inspect_image": "InspectImage",
	"eval": "Eval", "browser": "Browser", "github": "GitHub", "web_search": "Web Search",
}

// toolLabel returns a tool's title before its arguments are known.
func toolLabel(name string) string {
	if l, ok := toolLabels[name]; ok {
		return l
	}
	return name
}

// toolTitle describes a call in one line: the label and its subject (the
// path, pattern or action).
func toolTitle(name string, args map[string]any, paths []string) string {
	label := toolLabel(name)
	subject := ""
	switch name {
	case "search", "ast_grep":
		subject = firstNonEmpty(str(args, "pattern"), str(args, "pat"))
		if p := strings.Join(strs(args, "paths"), ", "); p != "" && subject != "" {
			subject += " in " + p
		}
	case "find":
		subject = strings.Join(strs(args, "paths"), ", ")
	case "resolve":
		subject = str(args, "action")
	case "bash":
		subject = str(args, "command")
	case "recipe":
		subject = str(args, "op")
	case "checkpoint":
		subject = str(args, "goal")
	case "rewind":
		// its report is long: the title stays "Rewind"
	default:
		subject = strings.Join(paths, ", ")
	}
	if subject == "" {
		return label
	}
	return label + " " + cut(subject, 120)
}

// callPaths returns the files a call names, as absolute paths: read and
// write take a path, edit names its files inside its input (hashline
// sections, apply_patch hunks) or as path (replace mode), ast_edit takes
// paths.
func callPaths(env *tool.Env, name string, args map[string]any) []string {
	var raw []string
	switch name {
	case "read", "write", "inspect_image":
		raw = append(raw, str(args, "path"))
	case "edit":
		if p := str(args, "path"); p != "" { // replace and patch modes
			raw = append(raw, p)
			break
		}
		if p := str(args, "file"); p != "" { // vim mode
			raw = append(raw, p)
			break
		}
		input := str(args, "input")
		if strings.Contains(input, "*** Begin Patch") {
			if ops, err := applypatch.ParseEnvelope(input); err == nil {
				for _, op := range ops {
					raw = append(raw, op.Path)
					if op.MovePath != "" {
						raw = append(raw, op.MovePath)
					}
				}
			}
		} else if in, err := hashedit.Parse(input, env.Cwd, env.Settings.Separator()); err == nil {
			for _, s := range in.Sections {
				raw = append(raw, s.Path)
			}
		}
	case "ast_edit", "ast_grep":
		raw = strs(args, "paths")
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range raw {
		p = strings.TrimSpace(p)
		if p == "" || strings.ContainsAny(p, "*?[") {
			continue
		}
		if name == "read" {
			if path, _, err := read.SplitSelector(p); err == nil {
				p = path // without a selector (path:10-20)
			}
		}
		abs := env.Resolve(p)
		if !seen[abs] {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	return out
}

// locations turns paths into tool-call locations.
func locations(paths []string) []sdk.ToolCallLocation {
	if len(paths) == 0 {
		return nil
	}
	out := make([]sdk.ToolCallLocation, len(paths))
	for i, p := range paths {
		out[i] = sdk.ToolCallLocation{Path: p}
	}
	return out
}

// maxToolText bounds the text of a tool result shown in the editor (the
// model saw all of it).
const maxToolText = 4000

// resultContent renders a tool result's blocks for the editor: text (cut
// to maxToolText) and images.
func resultContent(blocks []tool.Content) []sdk.ToolCallContent {
	var out []sdk.ToolCallContent
	for _, b := range blocks {
		switch c := b.(type) {
		case *ai.TextContent:
			if t := strings.TrimSpace(c.Text); t != "" {
				out = append(out, sdk.ToolContent(sdk.TextBlock(cut(t, maxToolText))))
			}
		case *ai.ImageContent:
			out = append(out, sdk.ToolContent(sdk.ImageBlock(c.Data, c.MIMEType)))
		}
	}
	return out
}

// cut shortens s to at most n bytes (on a rune boundary), marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// str returns a string argument.
func str(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

// strs returns a list-of-strings argument (a single string counts).
func strs(args map[string]any, key string) []string {
	switch v := args[key].(type) {
	case string:
		return []string{v}
	case []string:
		return v
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
