package prompt

import (
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// The base prompt says who the model is and how it should work. It names
// tools only by name: each tool's own description (sent with its
// definition) says how to call it, so nothing here repeats schema prose.
// Lines that depend on a tool appear only when that tool is offered.

const intro = `You are gopi, a coding agent. You work in the user's repository through the tools below and reply in their terminal. Aim for correct changes first, brevity second.`

// introNoTools replaces intro in a session without tools.
const introNoTools = `You are gopi, a coding agent replying in the user's terminal. No tools are offered in this session: answer from the conversation alone, and say what you would need to look at when it is not enough. Aim for correctness first, brevity second.`

const reportGuide = `# Reporting
End with a short report: what changed (files and the gist), how you checked it, what is left open. No narration of your steps, no restated diff; cite code as path:line.`

// toolset is the set of offered tools with the edit tool's mode.
type toolset struct {
	names map[string]bool
	edit  tool.EditMode
}

func newToolset(names []string, edit tool.EditMode) toolset {
	ts := toolset{names: make(map[string]bool, len(names)), edit: edit}
	for _, n := range names {
		ts.names[n] = true
	}
	if ts.edit == "" {
		ts.edit = tool.EditHashline
	}
	return ts
}

func (ts toolset) has(name string) bool { return ts.names[name] }

// writeBase appends the base prompt for the offered tools to b: the
// introduction, the tool inventory, the working rules and how to report.
func writeBase(b *strings.Builder, names []string, ts toolset) {
	if len(names) == 0 {
		b.WriteString(introNoTools)
		b.WriteByte('\n')
	} else {
		b.WriteString(intro)
		b.WriteString("\n\n")
		writeInventory(b, names, ts.edit)
	}
	b.WriteString("\n# How to work\n")
	for _, line := range guidance(ts) {
		b.WriteString("- ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.WriteString(reportGuide)
	b.WriteByte('\n')
}

// guidance returns the working rules that apply to the offered tools.
func guidance(ts toolset) []string {
	var out []string
	if look := lookupTools(ts); look != "" {
		line := "Look before you act: locate code with " + look + " instead of guessing paths"
		if ts.has("read") {
			line += ", then read the parts you will change (a range such as path:120-180 for a large file)"
		}
		out = append(out, line+". Do not read what the task does not need.")
	} else if ts.has("read") {
		out = append(out, "Read the parts of a file you will change before changing them.")
	}
	if len(ts.names) > 1 {
		out = append(out, "Put independent tool calls in one response; they run in parallel.")
	}
	if ts.has("edit") {
		switch ts.edit {
		case tool.EditReplace:
			out = append(out, "Change existing files with edit, copying old_text exactly from the file as read, without the line-number prefixes.")
		case tool.EditApplyPatch, tool.EditPatch:
			out = append(out, "Change files with edit, copying context and removed lines exactly from the file as read, without the line-number prefixes.")
		case tool.EditVim:
			out = append(out, "Change files with edit in vim mode: vim keys in kbd, the text to type in insert, and the highest line first when a call changes several places.")
		default:
			out = append(out, `Change existing files with edit, naming lines by their anchors (e.g. 41th) copied exactly from the latest read, search or edit output for that file, never computed. After an edit, use the anchors its result shows.`)
		}
	}
	if ts.has("write") {
		out = append(out, "Use write only for new files and complete rewrites.")
	}
	if ts.has("ast_edit") {
		out = append(out, "For one structural change at many places use ast_edit; it only previews, and resolve then applies or discards the preview.")
	}
	if ts.has("inspect_image") {
		out = append(out, "To understand an image (a screenshot, a diagram, a photo), ask inspect_image a specific question about it: what to look at, any constraints, the form of the answer. Do not read the image into the conversation.")
	}
	if ts.has("lsp") {
		out = append(out, "Where a language server handles the file, find definitions and uses of a symbol with lsp (definition, references) rather than text search, and check the callers with lsp references before changing an exported symbol.")
	}
	out = append(out,
		"Keep changes minimal and in the style of the surrounding code: do what was asked, without unrelated refactors, renames, reformatting or new files; reuse existing helpers instead of adding parallel ones.",
	)
	switch {
	case len(ts.names) == 0:
	case ts.has("bash"):
		out = append(out, "Verify before you report: run the relevant build and tests with bash and fix what fails.")
	default:
		out = append(out, "Verify before you report: check that each result shows the change you meant, and the callers of anything whose signature changed. You cannot run programs here, so name the build or test command the user should run.")
	}
	out = append(out,
		"Claim only what tool output showed you; say plainly what failed or is left undone.",
		"Changes you did not make are the user's work: keep them. Ask before deleting code you did not write or doing anything hard to undo; otherwise proceed without asking when the intent is clear.",
	)
	if len(ts.names) > 0 {
		out = append(out, "Give tools paths relative to the working directory.")
	}
	return out
}

// lookupTools names the offered search tools with what each is for, e.g.
// "search (text), find (file names) and ast_grep (syntax)".
func lookupTools(ts toolset) string {
	var parts []string
	for _, t := range [...]struct{ name, use string }{
		{"search", "search (text)"},
		{"find", "find (file names)"},
		{"ast_grep", "ast_grep (syntax)"},
	} {
		if ts.has(t.name) {
			parts = append(parts, t.use)
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// toolSummary is the one-line purpose of a built-in tool in the inventory;
// "" for tools gopi does not know (their definitions speak for them).
func toolSummary(name string, edit tool.EditMode) string {
	switch name {
	case "read":
		return "read a file or a range of its lines; list a directory"
	case "write":
		return "create a file or replace all of its content"
	case "edit":
		switch edit {
		case tool.EditReplace:
			return "replace exact text in a file"
		case tool.EditApplyPatch:
			return "apply a patch that adds, changes, moves or deletes files"
		}
		return "change lines of files, named by their anchors"
	case "search":
		return "regex search of file contents"
	case "find":
		return "find files by glob"
	case "ast_grep":
		return "find code by syntax pattern"
	case "ast_edit":
		return "rewrite code by syntax pattern (previewed)"
	case "resolve":
		return "apply or discard a pending preview"
	case "exit_plan_mode":
		return "in plan mode, hand the finished plan to the user for approval"
	case "bash":
		return "run a shell command"
	case "job":
		return "list, wait for or cancel background jobs"
	case "lsp":
		return "ask the language servers: diagnostics, definitions, references, hover, symbols"
	case "recipe":
		return "run one of the project's own tasks (just, package.json, cargo, make, Taskfile)"
	case "render_mermaid":
		return "draw a Mermaid diagram as text"
	case "inspect_image":
		return "ask a vision model a question about an image file"
	}
	return ""
}

// writeInventory appends one line per offered tool.
func writeInventory(b *strings.Builder, names []string, edit tool.EditMode) {
	b.WriteString("# Tools\n")
	for _, n := range names {
		b.WriteString("- ")
		b.WriteString(n)
		if s := toolSummary(n, edit); s != "" {
			b.WriteString(": ")
			b.WriteString(s)
		}
		b.WriteByte('\n')
	}
}
