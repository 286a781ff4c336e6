package github

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/atomicfile"
	"github.com/gopi-agent/gopi/internal/childproc"
)

// prURL matches a pull request URL: owner/repo and number.
var prURL = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^https://github\.com/([^/]+/[^/]+)/pull/(\d+)(?:/.*)?$`)
})

// prCreate runs pr_create: gh pr create with a flag per argument; a body
// goes through a temporary file (no argument length limits, no editor),
// and the new PR is read back for the summary when gh allows.
func (t *Tool) prCreate(ctx context.Context, a *args) (*outcome, error) {
	title := ""
	if a.Title != nil {
		title = strings.TrimSpace(*a.Title)
	}
	if a.Fill && (title != "" || a.Body != nil) {
		return nil, tool.Errorf("fill cannot be combined with title or body: pass fill alone, or title (and body) without fill")
	}
	if !a.Fill && title == "" {
		return nil, tool.Errorf("title is required unless fill is true")
	}
	cmd := []string{"pr", "create"}
	if a.Repo != "" {
		cmd = append(cmd, "--repo", a.Repo)
	}
	cmd = appendFlag(cmd, "--title", title)
	cmd = appendFlag(cmd, "--base", strings.TrimSpace(a.Base))
	cmd = appendFlag(cmd, "--head", strings.TrimSpace(a.Head))
	if a.Draft {
		cmd = append(cmd, "--draft")
	}
	if a.Fill {
		cmd = append(cmd, "--fill")
	}
	for _, r := range a.Reviewer {
		cmd = appendFlag(cmd, "--reviewer", strings.TrimSpace(r))
	}
	for _, as := range a.Assignee {
		cmd = appendFlag(cmd, "--assignee", strings.TrimSpace(as))
	}
	for _, l := range a.Label {
		cmd = appendFlag(cmd, "--label", strings.TrimSpace(l))
	}
	if !a.Fill {
		if a.Body == nil || *a.Body == "" {
			cmd = append(cmd, "--body", "")
		} else {
			file, cleanup, err := bodyFile(*a.Body)
			if err != nil {
				return nil, err
			}
			defer cleanup()
			cmd = append(cmd, "--body-file", file)
		}
	}
	out, err := t.gh.run(ctx, cmd, callOpts{repoGiven: a.Repo != ""})
	if err != nil {
		return nil, err
	}
	url := strings.TrimSpace(out)
	for _, line := range strings.Split(out, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "https://github.com/") {
			url = line
			break
		}
	}
	var d *prData
	repo, num := a.Repo, 0
	if m := prURL().FindStringSubmatch(url); m != nil {
		num, _ = strconv.Atoi(m[2])
		if repo == "" {
			repo = m[1]
		}
	}
	if repo != "" && num > 0 {
		var pd prData
		view := []string{"pr", "view", strconv.Itoa(num), "--repo", repo, "--json", joinFields(prFieldsNoComments)}
		if t.gh.runJSON(ctx, view, callOpts{repoGiven: true}, &pd) == nil {
			d = &pd
		}
	}
	return &outcome{text: renderCreated(url, num, d, title, a), sourceURL: url}, nil
}

// appendFlag appends flag and value unless value is empty.
func appendFlag(cmd []string, flag, value string) []string {
	if value == "" {
		return cmd
	}
	return append(cmd, flag, value)
}

// bodyFile writes a PR body to a file in a temporary directory of its
// own and returns its path and the clean-up that removes the directory.
func bodyFile(body string) (string, func(), error) {
	dir, err := childproc.MkdirTemp("gh-pr-body")
	if err != nil {
		return "", nil, tool.Errorf("cannot write the PR body to a temporary file: %v", err)
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	file := filepath.Join(dir, "body.md")
	if err := atomicfile.WriteFile(file, []byte(body), 0o600); err != nil {
		cleanup()
		return "", nil, tool.Errorf("cannot write the PR body to a temporary file: %v", err)
	}
	return file, cleanup, nil
}

// renderCreated is pr_create's text: from the PR read back when there
// is one, else from the arguments.
func renderCreated(url string, num int, d *prData, title string, a *args) string {
	if d == nil {
		d = &prData{}
	}
	head := "# Created Pull Request"
	if num == 0 {
		num = d.Number
	}
	if num > 0 {
		head += " #" + strconv.Itoa(num)
	}
	var v view
	v.add(head+": "+orDefault(d.Title, orDefault(title, "Untitled")), "")
	v.field("URL", orDefault(url, d.URL))
	v.field("State", d.State)
	if d.IsDraft != nil {
		v.field("Draft", d.IsDraft)
	} else if a.Draft {
		v.field("Draft", true)
	} else {
		v.field("Draft", false)
	}
	v.field("Base", orDefault(d.BaseRefName, strings.TrimSpace(a.Base)))
	v.field("Head", orDefault(d.HeadRefName, strings.TrimSpace(a.Head)))
	v.field("Author", d.Author.display())
	v.field("Created", d.CreatedAt)
	v.field("Labels", labelNames(d.Labels))
	if body := cleanText(d.Body); body != "" {
		v.add("", "## Body", "", body)
	}
	return v.String()
}
