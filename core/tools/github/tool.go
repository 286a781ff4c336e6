package github

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// Name is the tool's name.
const Name = "github"

// ops are the operations the tool offers, in the schema's order.
var ops = []any{"repo_view", "pr_create", "pr_checkout", "pr_push", "search_issues", "search_prs", "search_code", "search_commits", "search_repos", "run_watch"}

const description = "Works with GitHub through the GitHub CLI (gh): repositories, pull requests, searches and Actions runs.\n\n" +
	"Choose the operation with `op`; each uses some of the other parameters:\n" +
	"- `repo_view`: a repository's metadata. Optional `repo` (owner/repo) and `branch`; without `repo`, the current checkout's.\n" +
	"- `pr_create`: opens a pull request. Give `title` (and optionally `body`), or `fill: true` to take both from the commits. Optional `base`, `head`, `draft`, `repo`, `reviewer[]`, `assignee[]`, `label[]`. Answers with the new PR's URL and summary.\n" +
	"- `pr_checkout`: checks one or more pull requests out, each into a worktree of its own on a `pr-<number>` branch set to push back to the PR. Optional `pr` (number, URL or branch, or a list of them; without it, the current branch's PR), `repo`, `force` (reset an existing `pr-<number>` branch).\n" +
	"- `pr_push`: pushes a branch made by `pr_checkout` back to its PR's head branch. Optional `branch` (default: the current one), `forceWithLease`.\n" +
	"- `search_issues` / `search_prs`: GitHub issue or pull request search syntax in `query`; optional `repo`, `limit`, `since`, `until`, `dateField`.\n" +
	"- `search_code`: GitHub code search syntax in `query` (required); optional `repo`, `limit`. Shows matching paths with a fragment. No date filter: GitHub code search has none.\n" +
	"- `search_commits`: commit search; `query`, optional `repo`, `limit`, `since`, `until` (always on the committer date).\n" +
	"- `search_repos`: repository search; `query`, optional `limit`, `since`, `until`, `dateField` (scope with qualifiers such as `org:` or `language:` in the query).\n" +
	"- `since` / `until` narrow those searches by date: `3d`, `12h`, `2w`, `6mo`, `1y` (counted back from now; `m` is minutes), a date `YYYY-MM-DD` or an ISO date-time. With only a date filter, `query` can be left out.\n" +
	"- `run_watch`: follows a GitHub Actions run until it ends. Optional `run` (id or URL); without it, every run of the current HEAD commit on `branch` (default: the current branch). Optional `tail`: log lines shown per failed job.\n" +
	"Searches default to the current checkout's repository unless the query names a `repo:`, `org:`, `user:` or `owner:`.\n\n" +
	"To read one issue or pull request, use `read` on `issue://<N>` or `pr://<N>` (or `issue://owner/repo/<N>`); `pr://<N>/diff` lists a pull request's changed files."

// Details are what a call reports beside its text, for renderers.
type Details struct {
	SourceURL  string     `json:"sourceUrl,omitempty"`  // the canonical URL of the repository, PR or run shown
	Repo       string     `json:"repo,omitempty"`       // owner/repo the call was about
	Branch     string     `json:"branch,omitempty"`     // the branch watched
	HeadSHA    string     `json:"headSha,omitempty"`    // the commit watched
	RunID      int64      `json:"runId,omitempty"`      // the run watched (run mode)
	RunIDs     []int64    `json:"runIds,omitempty"`     // the runs watched (commit mode)
	Status     string     `json:"status,omitempty"`     // the run's last status
	Conclusion string     `json:"conclusion,omitempty"` // the run's conclusion, once it ended
	FailedJobs []string   `json:"failedJobs,omitempty"` // names of the failed jobs
	ArtifactID string     `json:"artifactId,omitempty"` // artifact holding the failed jobs' full logs
	Watch      *WatchView `json:"watch,omitempty"`      // the run_watch snapshot
	// WorktreePath, Remote and RemoteBranch are pr_checkout's (one PR)
	// and pr_push's: the worktree, the remote and the PR's head branch.
	WorktreePath string      `json:"worktreePath,omitempty"`
	Remote       string      `json:"remote,omitempty"`
	RemoteBranch string      `json:"remoteBranch,omitempty"`
	Checkouts    []*Checkout `json:"checkouts,omitempty"` // pr_checkout: every PR checked out
}

// args are the tool's arguments.
type args struct {
	Op             string          `json:"op"`
	Repo           string          `json:"repo"`
	Branch         string          `json:"branch"`
	Title          *string         `json:"title"`
	Body           *string         `json:"body"`
	Base           string          `json:"base"`
	Head           string          `json:"head"`
	Draft          bool            `json:"draft"`
	Fill           bool            `json:"fill"`
	Reviewer       []string        `json:"reviewer"`
	Assignee       []string        `json:"assignee"`
	Label          []string        `json:"label"`
	Query          string          `json:"query"`
	Since          *string         `json:"since"`
	Until          *string         `json:"until"`
	DateField      string          `json:"dateField"`
	Limit          *float64        `json:"limit"`
	Run            string          `json:"run"`
	Tail           *float64        `json:"tail"`
	PR             json.RawMessage `json:"pr"`
	Force          bool            `json:"force"`
	ForceWithLease bool            `json:"forceWithLease"`
}

// outcome is an op's result before it becomes a tool.Result.
type outcome struct {
	text      string
	sourceURL string
	details   *Details
}

// Tool is the github tool of one session.
type Tool struct {
	env   *tool.Env
	gh    *Runner
	watch watchTiming
	now   func() time.Time // the clock relative since/until count from
}

// New returns the tool over env, running gh in env's working directory.
func New(env *tool.Env) tool.Tool {
	return &Tool{env: env, gh: &Runner{Dir: env.Cwd}, watch: defaultWatchTiming, now: time.Now}
}

// Available reports whether the session offers the tool: github.enabled
// is on and gh is on PATH.
func Available(env *tool.Env) bool {
	return env.Settings.GitHub.Enabled && (&Runner{}).Available()
}

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	str := func(desc string, examples ...any) *tool.Schema {
		return &tool.Schema{Type: "string", Description: desc, Examples: examples}
	}
	strs := func(desc string, examples ...any) *tool.Schema {
		return &tool.Schema{Type: "array", Items: &tool.Schema{Type: "string"}, Description: desc, Examples: examples}
	}
	return tool.Definition{
		Name:        Name,
		Label:       "GitHub",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"op":             {Type: "string", Enum: ops, Description: "github operation"},
			"repo":           str("owner/repo (any op)", "facebook/react"),
			"branch":         str("branch (repo_view, pr_push local branch, run_watch)", "main", "develop"),
			"pr":             {Raw: json.RawMessage(`{"anyOf":[{"type":"string","examples":["123","feature-branch"]},{"type":"array","items":{"type":"string"},"examples":[["123","456"]]}],"description":"PR number, URL or branch (pr_checkout); a list checks several out in one call"}`)},
			"force":          tool.Boolean("reset an existing local pr-<number> branch (pr_checkout)"),
			"forceWithLease": tool.Boolean("push with --force-with-lease (pr_push)"),
			"title":          str("PR title (pr_create)", "Fix login bug"),
			"body":           str("PR body markdown (pr_create); not with fill"),
			"base":           str("PR base branch (pr_create); defaults to the repository's default branch", "main"),
			"head":           str("PR head branch (pr_create); defaults to the current branch", "feature/foo"),
			"draft":          tool.Boolean("open the PR as a draft (pr_create)"),
			"fill":           tool.Boolean("take PR title and body from the commits (pr_create); not with title or body"),
			"reviewer":       strs("reviewers to request (pr_create): users or org/team", []any{"octocat", "myorg/team"}),
			"assignee":       strs("assignees (pr_create); @me is you", []any{"@me"}),
			"label":          strs("labels to apply (pr_create)", []any{"bug", "enhancement"}),
			"query":          str("search query (search_*); may be left out on the searches that take since/until when one is given", "is:open label:bug"),
			"since":          str("lower date bound (search_issues, search_prs, search_commits, search_repos; not search_code): a duration back from now, <n> with m, h, d, w, mo or y (3d, 12h, 2w), a date YYYY-MM-DD or an ISO date-time; becomes a created:>=… (committer-date: for commits, pushed: for repos with dateField updated) qualifier", "3d", "2w", "2026-05-01"),
			"until":          str("upper date bound, written as since; with both, the qualifier is a since..until range", "1d", "2026-05-09"),
			"dateField":      {Type: "string", Enum: []any{"created", "updated"}, Default: "created", Description: "what since/until filter on: created (default) or updated for issues and PRs; for repos updated means the last push; commits always use the committer date"},
			"limit":          {Type: "number", Description: "max results (search_*), at most 50", Default: SearchLimitDefault},
			"run":            str("Actions run id or URL (run_watch)", "123456"),
			"tail":           {Type: "number", Description: "log lines per failed job (run_watch), at most 200", Default: RunWatchTailDefault},
		}, "op"),
		Concurrency: tool.Shared,
	}
}

// Execute runs one op.
func (t *Tool) Execute(ctx context.Context, raw tool.Args, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	var a args
	if err := raw.Decode(&a); err != nil {
		return nil, err
	}
	a.Repo, a.Branch = strings.TrimSpace(a.Repo), strings.TrimSpace(a.Branch)
	// The one check of repo for every op (search_repos does not use it):
	// it goes into gh's arguments, queries and API paths.
	if a.Repo != "" && a.Op != "search_repos" && !validRepoName(a.Repo) {
		return nil, tool.Errorf("repo %q is not owner/name (e.g. cli/cli): give the repository's owner and name separated by one slash.", clipRepo(a.Repo))
	}
	var out *outcome
	var err error
	switch a.Op {
	case "repo_view":
		out, err = t.repoView(ctx, &a)
	case "pr_create":
		out, err = t.prCreate(ctx, &a)
	case "pr_checkout":
		out, err = t.prCheckout(ctx, &a)
	case "pr_push":
		out, err = t.prPush(ctx, &a)
	case "search_issues":
		out, err = t.searchIssues(ctx, &a, false)
	case "search_prs":
		out, err = t.searchIssues(ctx, &a, true)
	case "search_code":
		out, err = t.searchCodeOp(ctx, &a)
	case "search_commits":
		out, err = t.searchCommitsOp(ctx, &a)
	case "search_repos":
		out, err = t.searchReposOp(ctx, &a)
	case "run_watch":
		out, err = t.runWatch(ctx, &a, onUpdate)
	default:
		return nil, tool.Errorf("Unknown op %q: use one of repo_view, pr_create, pr_checkout, pr_push, search_issues, search_prs, search_code, search_commits, search_repos, run_watch.", a.Op)
	}
	if err != nil {
		return nil, err
	}
	d := out.details
	if d == nil {
		d = &Details{}
	}
	if d.SourceURL == "" {
		d.SourceURL = out.sourceURL
	}
	return tool.TextResult(out.text, d), nil
}
