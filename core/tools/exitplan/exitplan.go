// Package exitplan is the exit_plan_mode tool: in plan mode, the model
// calls it once the plan file is written, to hand the plan to the user
// for approval. The tool only checks the call — plan mode is on, the
// title is a plain file name, the plan file exists — and names the file
// the approved plan will be renamed to; the session (core/agentsession)
// then stops the run and asks the user what to do with the plan.
package exitplan

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// Name is the tool's name.
const Name = "exit_plan_mode"

// ReadyText is the result of a call that hands the plan over.
const ReadyText = "Plan ready for approval."

const description = "Hands the finished implementation plan to the user for approval.\n\n" +
	"First write the plan to `local://PLAN.md`; then call this tool with a `title` (for example `WP_MIGRATION_PLAN`). " +
	"When the user approves, the file becomes `local://<title>.md` and every tool is available again.\n" +
	"- Call it only when the plan lays out implementation steps; research alone does not need it.\n" +
	"- The plan file **MUST** exist before the call.\n" +
	"- **MUST NOT** ask for approval with `ask`: this tool is how approval is asked."

// Details is what a successful call reports; the session reads it to
// run the approval.
type Details struct {
	PlanFilePath      string `json:"planFilePath"`      // the plan file as the model names it (local://PLAN.md)
	PlanExists        bool   `json:"planExists"`        // the plan file was there at the call
	Title             string `json:"title"`             // the title, without ".md"
	FinalPlanFilePath string `json:"finalPlanFilePath"` // where the approved plan goes: local://<title>.md
}

// Tool is the exit_plan_mode tool of one session.
type Tool struct{ env *tool.Env }

// New returns the tool over env, whose PlanMode says whether plan mode is
// on.
func New(env *tool.Env) tool.Tool { return &Tool{env: env} }

// Available reports whether the session offers the tool: plan mode is
// allowed (plan.enabled).
func Available(env *tool.Env) bool { return env.Settings.PlanEnabled }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        Name,
		Label:       "ExitPlanMode",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"title": {Type: "string", Description: "final plan title", Examples: []any{"WP_MIGRATION_PLAN"}},
		}, "title"),
		Concurrency: tool.Exclusive,
		ReadOnly:    true,
	}
}

// Execute checks the call and reports the plan as ready.
func (t *Tool) Execute(_ context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Title string `json:"title"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	pm := t.env.PlanMode()
	if pm == nil {
		return nil, tool.Errorf("Plan mode is not active.")
	}
	title, err := NormalizeTitle(a.Title)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(pm.Abs)
	switch {
	case err == nil && info.Mode().IsRegular():
	case err == nil || errors.Is(err, fs.ErrNotExist):
		return nil, tool.Errorf("Plan file not found at %s. Write the finalized plan to %s before calling exit_plan_mode.", pm.File, pm.File)
	default:
		return nil, tool.Errorf("Cannot read the plan file %s: %v", pm.File, err)
	}
	return tool.TextResult(ReadyText, &Details{
		PlanFilePath:      pm.File,
		PlanExists:        true,
		Title:             title,
		FinalPlanFilePath: tool.LocalScheme + title + ".md",
	}), nil
}

// titleRE is what a title may hold, its ".md" included.
var titleRE = regexp.MustCompile(`^[A-Za-z0-9_-]+\.md$`)

// NormalizeTitle checks a plan title and returns it without surrounding
// space and without a trailing ".md": it becomes a file name in the
// session's scratch directory, so it must be a plain name.
func NormalizeTitle(title string) (string, error) {
	t := strings.TrimSpace(title)
	if t == "" {
		return "", tool.Errorf("Title is required and must not be empty.")
	}
	if strings.ContainsAny(t, `/\`) || strings.Contains(t, "..") {
		return "", tool.Errorf("Title must not contain path separators or '..'.")
	}
	file := t
	if !strings.HasSuffix(strings.ToLower(file), ".md") {
		file += ".md"
	}
	if !titleRE.MatchString(file) {
		return "", tool.Errorf("Title may only contain letters, numbers, underscores, or hyphens.")
	}
	return file[:len(file)-3], nil
}
