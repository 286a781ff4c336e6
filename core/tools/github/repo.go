package github

import (
	"context"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// repoFields are the gh repo view --json fields repo_view shows.
var repoFields = []string{"nameWithOwner", "description", "url", "defaultBranchRef", "homepageUrl", "forkCount",
	"isArchived", "isFork", "primaryLanguage", "repositoryTopics", "stargazerCount", "updatedAt", "viewerPermission", "visibility"}

// repoData is gh repo view's JSON.
type repoData struct {
	NameWithOwner    string `json:"nameWithOwner"`
	Description      string `json:"description"`
	URL              string `json:"url"`
	DefaultBranchRef *struct {
		Name string `json:"name"`
	} `json:"defaultBranchRef"`
	HomepageURL     string `json:"homepageUrl"`
	ForkCount       *int   `json:"forkCount"`
	IsArchived      *bool  `json:"isArchived"`
	IsFork          *bool  `json:"isFork"`
	PrimaryLanguage *struct {
		Name string `json:"name"`
	} `json:"primaryLanguage"`
	RepositoryTopics []struct {
		Name  string `json:"name"`
		Topic *struct {
			Name string `json:"name"`
		} `json:"topic"`
	} `json:"repositoryTopics"`
	StargazerCount   *int   `json:"stargazerCount"`
	UpdatedAt        string `json:"updatedAt"`
	ViewerPermission string `json:"viewerPermission"`
	Visibility       string `json:"visibility"`
}

// repoView runs repo_view: gh repo view [repo] [--branch b] --json ….
func (t *Tool) repoView(ctx context.Context, a *args) (*outcome, error) {
	cmd := []string{"repo", "view"}
	if a.Repo != "" {
		cmd = append(cmd, a.Repo)
	}
	if a.Branch != "" {
		cmd = append(cmd, "--branch", a.Branch)
	}
	cmd = append(cmd, "--json", strings.Join(repoFields, ","))
	var d repoData
	if err := t.gh.runJSON(ctx, cmd, callOpts{repoGiven: a.Repo != ""}, &d); err != nil {
		return nil, err
	}
	return &outcome{text: renderRepo(&d, a.Repo, a.Branch), sourceURL: d.URL}, nil
}

// renderRepo is repo_view's text.
func renderRepo(d *repoData, repo, branch string) string {
	var v view
	v.add("# "+orDefault(d.NameWithOwner, orDefault(repo, "GitHub Repository")), "",
		orDefault(cleanText(d.Description), "No description provided."), "")
	v.field("URL", d.URL)
	if d.DefaultBranchRef != nil {
		v.field("Default branch", d.DefaultBranchRef.Name)
	}
	v.field("Branch", branch)
	v.field("Visibility", d.Visibility)
	v.field("Viewer permission", d.ViewerPermission)
	if d.PrimaryLanguage != nil {
		v.field("Primary language", d.PrimaryLanguage.Name)
	}
	v.field("Stars", d.StargazerCount)
	v.field("Forks", d.ForkCount)
	v.field("Archived", d.IsArchived)
	v.field("Fork", d.IsFork)
	v.field("Updated", d.UpdatedAt)
	v.field("Homepage", d.HomepageURL)
	var topics []string
	for _, tp := range d.RepositoryTopics {
		switch {
		case tp.Name != "":
			topics = append(topics, tp.Name)
		case tp.Topic != nil && tp.Topic.Name != "":
			topics = append(topics, tp.Topic.Name)
		}
	}
	v.field("Topics", strings.Join(topics, ", "))
	return v.String()
}

// currentRepo is the owner/repo of the checkout gh sees in the working
// directory.
func (t *Tool) currentRepo(ctx context.Context) (string, error) { return t.gh.checkoutRepo(ctx) }

// checkoutRepo asks gh for the owner/repo of the checkout in the working
// directory, and refuses an answer that is not one (it is put in the
// command lines that follow).
func (r *Runner) checkoutRepo(ctx context.Context) (string, error) {
	repo, err := r.run(ctx, []string{"repo", "view", "--json", "nameWithOwner", "-q", ".nameWithOwner"}, callOpts{})
	if err != nil {
		return "", err
	}
	if !validRepoName(repo) {
		return "", tool.Errorf("gh repo view named the repository %q, which is not owner/name; check `gh repo view` in this directory, or name the repository (repo, or issue://<owner>/<repo>/<number>).", clipRepo(repo))
	}
	return repo, nil
}

// validRepoName reports whether s is owner/name as GitHub spells them: an
// owner of letters, digits and hyphens (at most 39), a name of letters,
// digits, '.', '-' and '_' (at most 100, not "." or "..").
func validRepoName(s string) bool {
	owner, name, ok := strings.Cut(s, "/")
	if !ok || owner == "" || len(owner) > 39 || name == "" || len(name) > 100 || name == "." || name == ".." {
		return false
	}
	for _, c := range owner {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}

// clipRepo is gh's answer shortened for a message, on one line.
func clipRepo(s string) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "")), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "…"
	}
	return s
}
