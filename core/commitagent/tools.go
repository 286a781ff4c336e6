package commitagent

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gopi-agent/gopi/core/commitgen"
	"github.com/gopi-agent/gopi/core/tool"
)

// toolbox is what the commit agent's tools share: the repository, the
// state they fill and the facts of the run.
type toolbox struct {
	repo       *commitgen.Repo
	state      *State
	changelogs []string // changelog targets, relative to the repository's top
	stagedDiff string   // the staged diff when the agent started
}

// Tools returns the commit agent's tools over repo, filling state.
// changelogs are the CHANGELOG.md files the agent must give entries for
// (paths relative to the repository's top); stagedDiff is the staged diff
// the proposals are checked against. analyze, when not nil, runs the
// subagents of analyze_files (offered only then).
func Tools(repo *commitgen.Repo, state *State, changelogs []string, stagedDiff string, analyze Analyzer) []tool.Tool {
	tb := &toolbox{repo: repo, state: state, changelogs: changelogs, stagedDiff: stagedDiff}
	tools := []tool.Tool{tb.overviewTool(), tb.fileDiffTool(), tb.hunkTool(), tb.recentCommitsTool()}
	if analyze != nil {
		tools = append(tools, tb.analyzeTool(analyze))
	}
	return append(tools, tb.changelogTool(), tb.proposeTool(), tb.splitTool())
}

// funcTool is a tool made of its definition and a function.
type funcTool struct {
	def tool.Definition
	run func(ctx context.Context, args tool.Args) (*tool.Result, error)
}

// Definition describes the tool.
func (t *funcTool) Definition() tool.Definition { return t.def }

// Execute runs one call.
func (t *funcTool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	return t.run(ctx, args)
}

// schema parses a JSON Schema written for the provider: the provider
// receives it as written (Raw), and the keywords tool.Schema knows drive
// validation (alternatives written with anyOf are checked by the tool
// itself).
func schema(raw string) *tool.Schema {
	var s tool.Schema
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		panic(fmt.Sprintf("commitagent: a tool schema is not valid JSON: %v", err))
	}
	s.Raw = json.RawMessage(raw)
	return &s
}

// jsonResult answers with v as indented JSON, also kept as the details.
func jsonResult(v any) (*tool.Result, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return tool.TextResult(string(b), v), nil
}

// verdict is how the proposing tools answer: whether the proposal was
// accepted, and why not.
type verdict struct {
	Valid       bool        `json:"valid"`
	Errors      []string    `json:"errors"`
	Warnings    []string    `json:"warnings"`
	Proposal    any         `json:"proposal,omitempty"`
	Constraints *constraint `json:"constraints,omitempty"`
}

// constraint restates the limits the proposals are checked against.
type constraint struct {
	MaxSummaryChars int `json:"maxSummaryChars"`
	MaxDetailItems  int `json:"maxDetailItems"`
}

var limits = &constraint{MaxSummaryChars: commitgen.MaxSummary, MaxDetailItems: commitgen.MaxDetails}

// nonNil returns s, or an empty slice for nil (so JSON shows []).
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
