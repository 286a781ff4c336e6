package github

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// Search limits: results per call by default and at most.
const (
	SearchLimitDefault = 10
	SearchLimitMax     = 50
)

// searchIssue is an item of GitHub's /search/issues answer.
type searchIssue struct {
	Number        int     `json:"number"`
	Title         string  `json:"title"`
	State         string  `json:"state"`
	User          *user   `json:"user"`
	Labels        []label `json:"labels"`
	CreatedAt     string  `json:"created_at"`
	UpdatedAt     string  `json:"updated_at"`
	HTMLURL       string  `json:"html_url"`
	RepositoryURL string  `json:"repository_url"`
}

// searchRepoRef is the repository of a code or commit search item.
type searchRepoRef struct {
	FullName string `json:"full_name"`
}

// searchCode is an item of /search/code (with text matches).
type searchCode struct {
	Path        string         `json:"path"`
	SHA         string         `json:"sha"`
	HTMLURL     string         `json:"html_url"`
	Repository  *searchRepoRef `json:"repository"`
	TextMatches []struct {
		Fragment string `json:"fragment"`
	} `json:"text_matches"`
}

// gitPerson is a commit's author or committer as git recorded them.
type gitPerson struct {
	Name string `json:"name"`
	Date string `json:"date"`
}

// searchCommit is an item of /search/commits.
type searchCommit struct {
	SHA     string `json:"sha"`
	HTMLURL string `json:"html_url"`
	Author  *user  `json:"author"`
	Commit  struct {
		Message   string     `json:"message"`
		Author    *gitPerson `json:"author"`
		Committer *gitPerson `json:"committer"`
	} `json:"commit"`
	Repository *searchRepoRef `json:"repository"`
}

// searchRepo is an item of /search/repositories.
type searchRepo struct {
	FullName        string `json:"full_name"`
	Description     string `json:"description"`
	Language        string `json:"language"`
	StargazersCount *int   `json:"stargazers_count"`
	ForksCount      *int   `json:"forks_count"`
	OpenIssuesCount *int   `json:"open_issues_count"`
	Visibility      string `json:"visibility"`
	Archived        *bool  `json:"archived"`
	Fork            *bool  `json:"fork"`
	UpdatedAt       string `json:"updated_at"`
	HTMLURL         string `json:"html_url"`
}

// searchPage is a search answer: its items.
type searchPage[T any] struct {
	Items []T `json:"items"`
}

// searchLimit is the limit argument: SearchLimitDefault when absent,
// floored, at most SearchLimitMax, refused when not positive.
func searchLimit(v *float64) (int, error) {
	return positiveCapped(v, "limit", SearchLimitDefault, SearchLimitMax)
}

// positiveCapped floors a positive number and caps it; absent is def.
func positiveCapped(v *float64, name string, def, maxN int) (int, error) {
	if v == nil {
		return def, nil
	}
	if math.IsNaN(*v) || math.IsInf(*v, 0) || *v <= 0 {
		return 0, tool.Errorf("%s must be a positive number", name)
	}
	return int(math.Min(math.Floor(*v), float64(maxN))), nil
}

// hasScopeQualifier reports whether the query already names where to
// search (repo:, org:, user:, owner:).
func hasScopeQualifier(q string) bool {
	for _, f := range strings.Fields(q) {
		f = strings.ToLower(strings.TrimLeft(f, "-"))
		for _, p := range []string{"repo:", "org:", "user:", "owner:"} {
			if strings.HasPrefix(f, p) {
				return true
			}
		}
	}
	return false
}

// searchScope is the repository a search is limited to: the repo
// argument, else the current checkout's unless the query names its own
// scope or the checkout is not a GitHub one ("" then).
func (t *Tool) searchScope(ctx context.Context, a *args) string {
	if a.Repo != "" {
		return a.Repo
	}
	if hasScopeQualifier(a.Query) {
		return ""
	}
	repo, err := t.currentRepo(ctx)
	if err != nil {
		return ""
	}
	return repo
}

// searchAPI runs gh api -X GET <endpoint> -f q=<q> -F per_page=<n>.
func (t *Tool) searchAPI(ctx context.Context, endpoint, q string, limit int, v any, extra ...string) error {
	cmd := append([]string{"api", "-X", "GET", endpoint, "-f", "q=" + q, "-F", "per_page=" + strconv.Itoa(limit)}, extra...)
	return t.gh.runJSON(ctx, cmd, callOpts{repoGiven: true}, v)
}

// search is a search op's query and limit. The query is the query
// argument with the since/until qualifier after it; it must not end up
// empty. search_code takes no since/until (GitHub's code search has no
// date qualifier).
func (t *Tool) search(op string, a *args) (string, int, error) {
	var date string
	if op == "search_code" {
		if strings.TrimSpace(a.Query) == "" {
			return "", 0, tool.Errorf("query must not be empty: give the GitHub code search query to run")
		}
		if a.Since != nil || a.Until != nil {
			return "", 0, tool.Errorf("search_code does not take since/until: GitHub code search has no date filter; drop them or search commits instead")
		}
	} else {
		var err error
		if date, err = searchDateQualifier(op, a, t.now()); err != nil {
			return "", 0, err
		}
	}
	q := joinQuery(a.Query, date)
	if q == "" {
		return "", 0, tool.Errorf("query must not be empty: give a GitHub search query, or since/until to filter by date")
	}
	limit, err := searchLimit(a.Limit)
	return q, limit, err
}

// searchIssues runs search_issues (prs false) and search_prs (prs true).
func (t *Tool) searchIssues(ctx context.Context, a *args, prs bool) (*outcome, error) {
	op := "search_issues"
	if prs {
		op = "search_prs"
	}
	q, limit, err := t.search(op, a)
	if err != nil {
		return nil, err
	}
	repo := t.searchScope(ctx, a)
	kind, qualifier := "issues", "is:issue"
	if prs {
		kind, qualifier = "pull requests", "is:pr"
	}
	full := joinQuery(q, repoQualifier(repo), qualifier)
	var page searchPage[searchIssue]
	if err := t.searchAPI(ctx, "/search/issues", full, limit, &page); err != nil {
		return nil, err
	}
	return &outcome{text: renderIssueSearch(kind, q, repo, page.Items)}, nil
}

// repoQualifier is "repo:<repo>", or "" without a repo.
func repoQualifier(repo string) string {
	if repo == "" {
		return ""
	}
	return "repo:" + repo
}

// joinQuery joins the non-empty parts of a query with spaces.
func joinQuery(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// searchHeader starts a search view: title, query, scope, count.
func searchHeader(title, q, repo string, n int) *view {
	v := &view{}
	v.add("# "+title, "", "Query: "+q)
	v.field("Repository", repo)
	v.field("Results", n)
	return v
}

// repoFromAPIURL is owner/repo of https://api.github.com/repos/owner/repo.
func repoFromAPIURL(u string) string {
	_, rest, ok := strings.Cut(u, "/repos/")
	if !ok {
		return ""
	}
	return rest
}

// renderIssueSearch is the text of search_issues and search_prs.
func renderIssueSearch(kind, q, repo string, items []searchIssue) string {
	v := searchHeader("GitHub "+kind+" search", q, repo, len(items))
	if len(items) == 0 {
		v.add("", "No "+kind+" found.")
		return v.String()
	}
	for _, it := range items {
		num := "?"
		if it.Number > 0 {
			num = strconv.Itoa(it.Number)
		}
		v.add("", "- #"+num+" "+orDefault(it.Title, "Untitled"))
		v.field("  Repo", repoFromAPIURL(it.RepositoryURL))
		v.field("  State", it.State)
		v.field("  Author", it.User.display())
		v.field("  Labels", labelNames(it.Labels))
		v.field("  Created", it.CreatedAt)
		v.field("  Updated", it.UpdatedAt)
		v.field("  URL", it.HTMLURL)
	}
	return v.String()
}

// searchCodeOp runs search_code.
func (t *Tool) searchCodeOp(ctx context.Context, a *args) (*outcome, error) {
	q, limit, err := t.search("search_code", a)
	if err != nil {
		return nil, err
	}
	repo := t.searchScope(ctx, a)
	var page searchPage[searchCode]
	err = t.searchAPI(ctx, "/search/code", joinQuery(q, repoQualifier(repo)), limit, &page,
		"-H", "Accept: application/vnd.github.text-match+json")
	if err != nil {
		return nil, err
	}
	v := searchHeader("GitHub code search", q, repo, len(page.Items))
	if len(page.Items) == 0 {
		v.add("", "No code matches found.")
		return &outcome{text: v.String()}, nil
	}
	for _, it := range page.Items {
		v.add("", "- "+orDefault(it.Path, "(unknown path)"))
		if it.Repository != nil {
			v.field("  Repo", it.Repository.FullName)
		}
		v.field("  Commit", shortSHA(it.SHA))
		v.field("  URL", it.HTMLURL)
		for _, m := range it.TextMatches {
			if m.Fragment != "" {
				v.field("  Match", firstLine(m.Fragment))
				break
			}
		}
	}
	return &outcome{text: v.String()}, nil
}

// searchCommitsOp runs search_commits.
func (t *Tool) searchCommitsOp(ctx context.Context, a *args) (*outcome, error) {
	q, limit, err := t.search("search_commits", a)
	if err != nil {
		return nil, err
	}
	repo := t.searchScope(ctx, a)
	var page searchPage[searchCommit]
	if err := t.searchAPI(ctx, "/search/commits", joinQuery(q, repoQualifier(repo)), limit, &page); err != nil {
		return nil, err
	}
	v := searchHeader("GitHub commits search", q, repo, len(page.Items))
	if len(page.Items) == 0 {
		v.add("", "No commits found.")
		return &outcome{text: v.String()}, nil
	}
	for _, it := range page.Items {
		v.add("", "- "+orDefault(shortSHA(it.SHA), "(unknown sha)")+" "+orDefault(firstLine(it.Commit.Message), "(no commit message)"))
		if it.Repository != nil {
			v.field("  Repo", it.Repository.FullName)
		}
		author := it.Author.display()
		if author == "" && it.Commit.Author != nil {
			author = it.Commit.Author.Name
		}
		v.field("  Author", author)
		date := ""
		if it.Commit.Author != nil {
			date = it.Commit.Author.Date
		}
		if date == "" && it.Commit.Committer != nil {
			date = it.Commit.Committer.Date
		}
		v.field("  Date", date)
		v.field("  URL", it.HTMLURL)
	}
	return &outcome{text: v.String()}, nil
}

// searchReposOp runs search_repos; the repo argument is not used.
func (t *Tool) searchReposOp(ctx context.Context, a *args) (*outcome, error) {
	q, limit, err := t.search("search_repos", a)
	if err != nil {
		return nil, err
	}
	var page searchPage[searchRepo]
	if err := t.searchAPI(ctx, "/search/repositories", q, limit, &page); err != nil {
		return nil, err
	}
	v := searchHeader("GitHub repositories search", q, "", len(page.Items))
	if len(page.Items) == 0 {
		v.add("", "No repositories found.")
		return &outcome{text: v.String()}, nil
	}
	for _, it := range page.Items {
		v.add("", "- "+orDefault(it.FullName, "(unknown repository)"))
		v.field("  Description", firstLine(it.Description))
		v.field("  Language", it.Language)
		v.field("  Stars", it.StargazersCount)
		v.field("  Forks", it.ForksCount)
		v.field("  Open issues", it.OpenIssuesCount)
		v.field("  Visibility", it.Visibility)
		v.field("  Archived", it.Archived)
		v.field("  Fork", it.Fork)
		v.field("  Updated", it.UpdatedAt)
		v.field("  URL", it.HTMLURL)
	}
	return &outcome{text: v.String()}, nil
}
