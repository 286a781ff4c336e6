package commitagent

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/commitgen"
	"github.com/gopi-agent/gopi/core/tool"
)

// The proposing tools: one commit, a split, and changelog entries. Each
// checks its proposal and answers {valid, errors, warnings}; only a valid
// proposal is kept, and a later valid one replaces it.

// typeEnum is the JSON list of commit types.
var typeEnum = `["` + strings.Join(commitgen.Types, `","`) + `"]`

// detailSchema is a body line with its changelog metadata.
const detailSchema = `{"type":"object","required":["text"],"properties":{` +
	`"text":{"type":"string","description":"one sentence in the past tense, ending with a period"},` +
	`"changelog_category":{"type":"string","enum":["Added","Changed","Fixed","Deprecated","Removed","Security","Breaking Changes"]},` +
	`"user_visible":{"type":"boolean","description":"a user of the project notices this change"}}}`

// scopeSchema is a scope or null.
const scopeSchema = `{"anyOf":[{"type":"string"},{"type":"null"}],"description":"the component, lowercase, at most two segments (a/b); null for none"}`

// detailArg is a body line as the model gives it.
type detailArg struct {
	Text string `json:"text"`
}

// texts returns the trimmed texts of the details.
func texts(ds []detailArg) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, strings.TrimSpace(d.Text))
	}
	return out
}

// commitArgs are a commit's message fields as the model gives them.
type commitArgs struct {
	Type      string      `json:"type"`
	Scope     *string     `json:"scope"`
	Summary   string      `json:"summary"`
	Details   []detailArg `json:"details"`
	IssueRefs []string    `json:"issue_refs"`
}

// message builds the message the arguments describe.
func (c commitArgs) message() commitgen.Message {
	m := commitgen.Message{Type: c.Type, Summary: c.Summary, Details: texts(c.Details)}
	if c.Scope != nil {
		m.Scope = *c.Scope
	}
	return m
}

func (tb *toolbox) proposeTool() tool.Tool {
	return &funcTool{
		def: tool.Definition{
			Name: "propose_commit", Label: "Propose Commit", Concurrency: tool.Exclusive,
			Description: "Proposes the message of a single commit of all the staged changes. The answer says whether it was accepted; fix the errors it lists and call again.",
			Parameters: schema(`{"type":"object","required":["type","scope","summary","details","issue_refs"],"properties":{` +
				`"type":{"type":"string","enum":` + typeEnum + `},` +
				`"scope":` + scopeSchema + `,` +
				`"summary":{"type":"string","description":"past tense, at most 72 characters, no trailing period, without the type or scope"},` +
				`"details":{"type":"array","items":` + detailSchema + `},` +
				`"issue_refs":{"type":"array","items":{"type":"string"},"description":"issues the change refers to, such as #123"}}}`),
		},
		run: func(ctx context.Context, args tool.Args) (*tool.Result, error) {
			var a commitArgs
			if err := args.Decode(&a); err != nil {
				return nil, err
			}
			m := a.message()
			files := tb.state.stagedFiles()
			if files == nil {
				var err error
				if files, err = tb.repo.ChangedFiles(ctx, true); err != nil {
					return nil, err
				}
			}
			errs, warns := commitgen.CheckProposal(&m, files, tb.stagedDiff)
			v := verdict{Valid: len(errs) == 0, Errors: nonNil(errs), Warnings: nonNil(warns), Constraints: limits}
			if v.Valid {
				v.Proposal = m
				tb.state.mu.Lock()
				tb.state.proposal = &Proposal{Message: m, Warnings: warns}
				tb.state.mu.Unlock()
			}
			return jsonResult(v)
		},
	}
}

// splitArgs is split_commit's arguments.
type splitArgs struct {
	Commits []struct {
		commitArgs
		Changes []struct {
			Path  string          `json:"path"`
			Hunks json.RawMessage `json:"hunks"`
		} `json:"changes"`
		Rationale    string    `json:"rationale"`
		Dependencies []float64 `json:"dependencies"`
	} `json:"commits"`
}

// hunkSelectorSchema is the three ways to pick a file's hunks.
const hunkSelectorSchema = `{"anyOf":[` +
	`{"type":"object","required":["type"],"properties":{"type":{"type":"string","enum":["all"]}}},` +
	`{"type":"object","required":["type","indices"],"properties":{"type":{"type":"string","enum":["indices"]},"indices":{"type":"array","minItems":1,"items":{"type":"number"},"description":"hunk numbers from 1, as git_hunk shows them"}}},` +
	`{"type":"object","required":["type","start","end"],"properties":{"type":{"type":"string","enum":["lines"]},"start":{"type":"number"},"end":{"type":"number"}},"description":"the hunks touching these lines of the new file"}]}`

func (tb *toolbox) splitTool() tool.Tool {
	return &funcTool{
		def: tool.Definition{
			Name: "split_commit", Label: "Split Commit", Concurrency: tool.Exclusive,
			Description: "Proposes several commits for changes that do not belong together. Every staged file goes to exactly one commit, whole or by hunks; dependencies name the commits (by 0-based position in the list) that must come first. The answer says whether the plan was accepted; fix the errors it lists and call again.",
			Parameters: schema(`{"type":"object","required":["commits"],"properties":{"commits":{"type":"array","minItems":2,"items":{"type":"object","required":["changes","type","scope","summary"],"properties":{` +
				`"changes":{"type":"array","minItems":1,"items":{"type":"object","required":["path","hunks"],"properties":{"path":{"type":"string"},"hunks":` + hunkSelectorSchema + `}}},` +
				`"type":{"type":"string","enum":` + typeEnum + `},` +
				`"scope":` + scopeSchema + `,` +
				`"summary":{"type":"string","description":"past tense, at most 72 characters, no trailing period"},` +
				`"details":{"type":"array","items":` + detailSchema + `},` +
				`"issue_refs":{"type":"array","items":{"type":"string"}},` +
				`"rationale":{"type":"string","description":"why these changes form one commit"},` +
				`"dependencies":{"type":"array","items":{"type":"number"},"description":"0-based positions of the commits this one needs first"}}}}}}`),
		},
		run: func(ctx context.Context, args tool.Args) (*tool.Result, error) {
			var a splitArgs
			if err := args.Decode(&a); err != nil {
				return nil, err
			}
			plan, errs, warns := tb.checkSplit(ctx, a)
			v := verdict{Valid: len(errs) == 0, Errors: nonNil(errs), Warnings: nonNil(warns), Constraints: limits}
			if v.Valid {
				plan.Warnings = warns
				v.Proposal = plan
				tb.state.mu.Lock()
				tb.state.split = &plan
				tb.state.mu.Unlock()
			}
			return jsonResult(v)
		},
	}
}

// checkSplit builds the plan split_commit describes and lists what is
// wrong with it: each commit's message, its hunk selectors and
// dependencies, files not staged or used twice, staged files left out,
// and cycles.
func (tb *toolbox) checkSplit(ctx context.Context, a splitArgs) (commitgen.SplitPlan, []string, []string) {
	var errs, warns []string
	if len(a.Commits) < 2 {
		errs = append(errs, "a split needs at least two commits; use propose_commit for one")
	}
	staged := tb.state.stagedFiles()
	if staged == nil {
		var err error
		if staged, err = tb.repo.ChangedFiles(ctx, true); err != nil {
			return commitgen.SplitPlan{}, []string{err.Error()}, nil
		}
	}
	var plan commitgen.SplitPlan
	used := map[string]bool{}
	for i, c := range a.Commits {
		at := fmt.Sprintf("commit %d: ", i+1)
		g := commitgen.Group{Message: c.message(), Rationale: strings.TrimSpace(c.Rationale)}
		for _, ch := range c.Changes {
			sel := commitgen.HunkSelector{Type: commitgen.HunksAll}
			if len(ch.Hunks) > 0 && string(ch.Hunks) != "null" {
				if err := json.Unmarshal(ch.Hunks, &sel); err != nil {
					errs = append(errs, at+"the hunks of "+ch.Path+" are not a selector: "+err.Error())
				}
			}
			if p := sel.Problem(); p != "" {
				errs = append(errs, at+p+" for "+ch.Path)
			}
			g.Changes = append(g.Changes, commitgen.FileChange{Path: ch.Path, Hunks: sel})
		}
		if len(g.Changes) == 0 {
			errs = append(errs, at+"no files")
		}
		e, w := commitgen.CheckProposal(&g.Message, g.Files(), tb.stagedDiff)
		errs, warns = append(errs, prefixed(at, e)...), append(warns, prefixed(at, w)...)
		for _, d := range c.Dependencies {
			switch {
			case d != math.Trunc(d):
				errs = append(errs, at+"a dependency must be a whole number")
			case int(d) == i:
				errs = append(errs, at+"a commit cannot depend on itself")
			case d < 0 || int(d) >= len(a.Commits):
				errs = append(errs, fmt.Sprintf("%sdependency %v is not the position of a commit (0 to %d)", at, d, len(a.Commits)-1))
			default:
				g.Dependencies = append(g.Dependencies, int(d))
			}
		}
		seen := map[string]bool{}
		for _, f := range g.Files() {
			switch {
			case !slices.Contains(staged, f) && !slices.Contains(tb.changelogs, f):
				errs = append(errs, "file not staged: "+f)
			case seen[f]:
				errs = append(errs, at+"lists "+f+" twice")
			case used[f]:
				errs = append(errs, "file in more than one commit: "+f)
			}
			seen[f], used[f] = true, true
		}
		plan.Commits = append(plan.Commits, g)
	}
	for _, f := range staged {
		if !used[f] {
			errs = append(errs, "staged file in no commit of the plan: "+f)
		}
	}
	if _, err := commitgen.Order(plan.Commits); err != nil && len(errs) == 0 {
		errs = append(errs, err.Error())
	}
	return plan, errs, warns
}

// prefixed returns list with prefix before each item.
func prefixed(prefix string, list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = prefix + s
	}
	return out
}

func (tb *toolbox) changelogTool() tool.Tool {
	cats := make([]string, len(commitgen.ChangelogCategories))
	for i, c := range commitgen.ChangelogCategories {
		cats[i] = fmt.Sprintf(`%q:{"type":"array","items":{"type":"string"}}`, c)
	}
	entries := `{"type":"object","properties":{` + strings.Join(cats, ",") + `}}`
	return &funcTool{
		def: tool.Definition{
			Name: "propose_changelog", Label: "Propose Changelog", Concurrency: tool.Exclusive,
			Description: "Gives the entries to add under [Unreleased] in each changelog named in the task, by Keep a Changelog category, and optionally existing entries to remove (matched ignoring case). Give every named changelog exactly once.",
			Parameters: schema(`{"type":"object","required":["entries"],"properties":{"entries":{"type":"array","items":{"type":"object","required":["path","entries"],"properties":{` +
				`"path":{"type":"string","description":"the changelog, as the task names it"},` +
				`"entries":` + entries + `,` +
				`"deletions":{"type":"object","description":"existing entries to remove, by category","properties":{` + strings.Join(cats, ",") + `}}}}}}}`),
		},
		run: func(_ context.Context, args tool.Args) (*tool.Result, error) {
			var a struct {
				Entries []struct {
					Path      string                     `json:"path"`
					Entries   map[string]json.RawMessage `json:"entries"`
					Deletions map[string]json.RawMessage `json:"deletions"`
				} `json:"entries"`
			}
			if err := args.Decode(&a); err != nil {
				return nil, err
			}
			var errs, warns []string
			var out []ChangelogProposal
			seen := map[string]bool{}
			for _, e := range a.Entries {
				p := ChangelogProposal{Path: e.Path}
				p.Entries, errs = cleanEntries(e.Path, "", e.Entries, true, errs)
				p.Deletions, errs = cleanEntries(e.Path, "deletion ", e.Deletions, false, errs)
				if len(p.Entries) == 0 && len(p.Deletions) == 0 {
					warns = append(warns, "no changelog entries for "+e.Path)
				}
				switch {
				case len(tb.changelogs) > 0 && !slices.Contains(tb.changelogs, e.Path):
					errs = append(errs, "not a changelog of this change: "+e.Path)
				case seen[e.Path]:
					errs = append(errs, "changelog given twice: "+e.Path)
				default:
					seen[e.Path] = true
					out = append(out, p)
				}
			}
			for _, c := range tb.changelogs {
				if !seen[c] {
					errs = append(errs, "no entries given for "+c+" (give it with empty entries when nothing is worth a line)")
				}
			}
			v := verdict{Valid: len(errs) == 0, Errors: nonNil(errs), Warnings: nonNil(warns)}
			if v.Valid {
				if out == nil {
					out = []ChangelogProposal{}
				}
				tb.state.mu.Lock()
				tb.state.changelog = out
				tb.state.mu.Unlock()
			}
			return jsonResult(v)
		},
	}
}

// cleanEntries checks the categories of one changelog's entries and
// trims them (dropping a trailing period from new entries, dupes and
// empty ones); the problems are added to errs.
func cleanEntries(path, what string, in map[string]json.RawMessage, dropPeriod bool, errs []string) (map[string][]string, []string) {
	out := map[string][]string{}
	for cat, raw := range in {
		if !slices.Contains(commitgen.ChangelogCategories, cat) {
			errs = append(errs, fmt.Sprintf("unknown %scategory for %s: %s (use %s)", what, path, cat, strings.Join(commitgen.ChangelogCategories, ", ")))
			continue
		}
		var items []string
		if err := json.Unmarshal(raw, &items); err != nil {
			errs = append(errs, fmt.Sprintf("the %sentries of %s under %s are not a list of strings", what, path, cat))
			continue
		}
		for _, it := range items {
			it = strings.TrimSpace(it)
			if dropPeriod {
				it = strings.TrimSuffix(it, ".")
			}
			if it != "" && !slices.Contains(out[cat], it) {
				out[cat] = append(out[cat], it)
			}
		}
		if len(out[cat]) == 0 {
			delete(out, cat)
		}
	}
	if len(out) == 0 {
		return nil, errs
	}
	return out, errs
}

// toFloat reads a JSON number (float64 or json.Number).
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}
