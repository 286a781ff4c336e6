package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/tool"
)

// prCheckoutFields are the gh pr view --json fields pr_checkout needs.
var prCheckoutFields = []string{"baseRefName", "headRefName", "headRefOid", "headRepository", "headRepositoryOwner",
	"isCrossRepository", "maintainerCanModify", "number", "title", "url"}

// prCheckoutData is gh pr view's JSON for a checkout.
type prCheckoutData struct {
	Number         int    `json:"number"`
	Title          string `json:"title"`
	URL            string `json:"url"`
	BaseRefName    string `json:"baseRefName"`
	HeadRefName    string `json:"headRefName"`
	HeadRefOid     string `json:"headRefOid"`
	HeadRepository *struct {
		Name          string `json:"name"`
		NameWithOwner string `json:"nameWithOwner"`
	} `json:"headRepository"`
	HeadRepositoryOwner *struct {
		Login string `json:"login"`
	} `json:"headRepositoryOwner"`
	IsCrossRepository   bool `json:"isCrossRepository"`
	MaintainerCanModify bool `json:"maintainerCanModify"`
}

// Checkout is one PR checked out by pr_checkout (details.checkouts).
type Checkout struct {
	PRNumber     int    `json:"prNumber,omitempty"`
	URL          string `json:"url,omitempty"`
	Branch       string `json:"branch"`
	WorktreePath string `json:"worktreePath"`
	Remote       string `json:"remote"`
	RemoteBranch string `json:"remoteBranch"`
	Reused       bool   `json:"reused"`
	remoteURL    string
	data         *prCheckoutData
}

// repoLocks serialise the git changes of pr_checkout per primary
// repository: worktrees share .git/config, packed-refs and the worktree
// list, whose lock files git takes without waiting.
var repoLocks sync.Map // primary root → *sync.Mutex

// lockRepo locks root's git changes and returns the unlock.
func lockRepo(root string) func() {
	m, _ := repoLocks.LoadOrStore(root, &sync.Mutex{})
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// prRefs reads the pr argument: one identifier or a list ([""] for the
// current branch's PR).
func prRefs(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return []string{""}, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{strings.TrimSpace(one)}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, tool.Errorf("pr must be a PR number, branch or URL, or a list of them")
	}
	var out []string
	for _, s := range many {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return []string{""}, nil
	}
	return out, nil
}

// prCheckout runs pr_checkout: each PR into a worktree of its own on a
// pr-<number> branch set up to push back to the PR's head branch. PRs
// are resolved in parallel; the git changes run one at a time per
// repository.
func (t *Tool) prCheckout(ctx context.Context, a *args) (*outcome, error) {
	refs, err := prRefs(a.PR)
	if err != nil {
		return nil, err
	}
	outs := make([]*Checkout, len(refs))
	errs := make([]error, len(refs))
	var wg sync.WaitGroup
	for i, ref := range refs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = t.checkoutOne(ctx, ref, a.Repo, a.Force)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	d := &Details{Repo: a.Repo, Checkouts: outs}
	if len(outs) == 1 {
		c := outs[0]
		d.Branch, d.WorktreePath, d.Remote, d.RemoteBranch = c.Branch, c.WorktreePath, c.Remote, c.RemoteBranch
		if d.Repo == "" && c.data.HeadRepository != nil {
			d.Repo = c.data.HeadRepository.NameWithOwner
		}
		return &outcome{text: renderCheckout(c), sourceURL: c.URL, details: d}, nil
	}
	reused := 0
	for _, c := range outs {
		if c.Reused {
			reused++
		}
	}
	var parts []string
	if n := len(outs) - reused; n > 0 {
		parts = append(parts, fmt.Sprintf("%d checked out", n))
	}
	if reused > 0 {
		parts = append(parts, fmt.Sprintf("%d reused", reused))
	}
	sections := []string{fmt.Sprintf("# %d Pull Request Worktrees (%s)", len(outs), strings.Join(parts, ", "))}
	for i, c := range outs {
		if i > 0 {
			sections = append(sections, "---")
		}
		sections = append(sections, renderCheckout(c))
	}
	return &outcome{text: strings.Join(sections, "\n\n"), details: d}, nil
}

// checkoutOne checks one PR out.
func (t *Tool) checkoutOne(ctx context.Context, ref, repo string, force bool) (*Checkout, error) {
	cmd := []string{"pr", "view"}
	if ref != "" {
		cmd = append(cmd, ref)
	}
	if repo != "" && !strings.HasPrefix(ref, "https://github.com/") {
		cmd = append(cmd, "--repo", repo)
	}
	cmd = append(cmd, "--json", joinFields(prCheckoutFields))
	var d prCheckoutData
	if err := t.gh.runJSON(ctx, cmd, callOpts{repoGiven: repo != ""}, &d); err != nil {
		return nil, err
	}
	if d.Number <= 0 || d.HeadRefName == "" || d.HeadRefOid == "" {
		return nil, tool.Errorf("GitHub CLI did not return the pull request's number, head branch and head commit.")
	}
	root, primary, err := t.repoRoots(ctx)
	if err != nil {
		return nil, err
	}
	if t.env.Settings.GitHub.WorktreesDir == "" {
		return nil, tool.Errorf("pr_checkout needs a directory for worktrees, and this session has no agent directory.")
	}
	local := "pr-" + strconv.Itoa(d.Number)
	unlock := lockRepo(primary)
	defer unlock()
	existing, registered, err := findWorktree(ctx, root, "refs/heads/"+local)
	if err != nil {
		return nil, err
	}
	remote, remoteURL, err := t.prRemote(ctx, root, &d)
	if err != nil {
		return nil, err
	}
	tracking := "refs/remotes/" + remote + "/" + d.HeadRefName
	if _, err := gitIn(ctx, root, "fetch", remote, "refs/heads/"+d.HeadRefName+":"+tracking); err != nil {
		return nil, err
	}
	if existing == "" {
		if err := setBranch(ctx, root, local, tracking, d.HeadRefOid, force); err != nil {
			return nil, err
		}
	}
	for _, kv := range [][2]string{{"remote", remote}, {"merge", "refs/heads/" + d.HeadRefName}, {"pushRemote", remote},
		{"ompPrHeadRef", d.HeadRefName}, {"ompPrUrl", d.URL}, {"ompPrIsCrossRepository", strconv.FormatBool(d.IsCrossRepository)},
		{"ompPrMaintainerCanModify", strconv.FormatBool(d.MaintainerCanModify)}} {
		if _, err := gitIn(ctx, root, "config", "branch."+local+"."+kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	path := existing
	if path == "" {
		path = filepath.Join(t.env.Settings.GitHub.WorktreesDir, encodeRepoPath(primary), local)
		if registered[filepath.Clean(path)] {
			return nil, tool.Errorf("worktree path is already registered: %s", path)
		}
		if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
			return nil, tool.Errorf("worktree path already exists: %s; remove it or check the PR out by hand", path)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, tool.Errorf("cannot create the worktree directory: %v", err)
		}
		if _, err := gitIn(ctx, root, "worktree", "add", path, local); err != nil {
			return nil, err
		}
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return &Checkout{PRNumber: d.Number, URL: d.URL, Branch: local, WorktreePath: path, Remote: remote,
		RemoteBranch: d.HeadRefName, Reused: existing != "", remoteURL: remoteURL, data: &d}, nil
}

// repoRoots are the checkout's top directory and its primary
// repository's (the main worktree's) top directory.
func (t *Tool) repoRoots(ctx context.Context) (root, primary string, err error) {
	root, err = t.git(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", "", tool.Errorf("Current git repository is unavailable: run pr_checkout inside a git checkout of the repository.")
	}
	common, err := gitIn(ctx, root, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", "", err
	}
	return root, filepath.Dir(common), nil
}

// findWorktree returns the worktree that has branch checked out ("" for
// none) and the set of registered worktree paths.
func findWorktree(ctx context.Context, root, branch string) (string, map[string]bool, error) {
	out, err := gitIn(ctx, root, "worktree", "list", "--porcelain")
	if err != nil {
		return "", nil, err
	}
	registered := map[string]bool{}
	found, cur := "", ""
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "worktree "):
			cur = strings.TrimPrefix(line, "worktree ")
			registered[filepath.Clean(cur)] = true
		case line == "branch "+branch:
			found = cur
		}
	}
	return found, registered, nil
}

// setBranch points the local branch at the fetched PR head: created when
// missing, left when already there, reset only with force.
func setBranch(ctx context.Context, root, local, tracking, oid string, force bool) error {
	have, err := gitIn(ctx, root, "rev-parse", "--verify", "--quiet", "refs/heads/"+local)
	if err != nil || have == "" {
		_, err := gitIn(ctx, root, "branch", local, tracking)
		return err
	}
	if have == oid {
		return nil
	}
	if !force {
		return tool.Errorf("local branch %s already exists at %s; pass force=true to reset it", local, shortSHA(have))
	}
	_, err = gitIn(ctx, root, "branch", "--force", local, tracking)
	return err
}

// prRemote is the remote to fetch the PR head from and push back to:
// origin for a PR from the same repository; for a fork, a remote with
// the fork's URL, added as fork-<owner> when none has it.
func (t *Tool) prRemote(ctx context.Context, root string, d *prCheckoutData) (string, string, error) {
	origin, _ := gitIn(ctx, root, "remote", "get-url", "origin")
	if !d.IsCrossRepository {
		if origin == "" {
			return "", "", tool.Errorf("origin remote is unavailable for this repository: add it (git remote add origin URL) and retry.")
		}
		return "origin", origin, nil
	}
	if d.HeadRepository == nil || d.HeadRepository.NameWithOwner == "" {
		return "", "", tool.Errorf("GitHub CLI did not return the PR's head repository.")
	}
	head := d.HeadRepository.NameWithOwner
	var clone struct {
		URL    string `json:"url"`
		SSHURL string `json:"sshUrl"`
	}
	if err := t.gh.runJSON(ctx, []string{"repo", "view", head, "--json", "nameWithOwner,sshUrl,url"}, callOpts{repoGiven: true}, &clone); err != nil {
		return "", "", err
	}
	url := orDefault(clone.SSHURL, clone.URL)
	if strings.HasPrefix(origin, "http://") || strings.HasPrefix(origin, "https://") {
		url = orDefault(clone.URL, clone.SSHURL)
	}
	if url == "" {
		return "", "", tool.Errorf("Could not determine a clone URL for %s.", head)
	}
	remotes, _ := gitIn(ctx, root, "remote")
	taken := map[string]bool{}
	for _, name := range strings.Fields(remotes) {
		taken[name] = true
		if u, _ := gitIn(ctx, root, "remote", "get-url", name); u == url {
			return name, url, nil
		}
	}
	owner, _, _ := strings.Cut(head, "/")
	if d.HeadRepositoryOwner != nil && d.HeadRepositoryOwner.Login != "" {
		owner = d.HeadRepositoryOwner.Login
	}
	base := remoteName(owner)
	name := base
	for n := 2; taken[name]; n++ {
		name = base + "-" + strconv.Itoa(n)
	}
	if _, err := gitIn(ctx, root, "remote", "add", name, url); err != nil {
		return "", "", err
	}
	return name, url, nil
}

// nonAlnum is a run of characters a remote name leaves out.
var nonAlnum = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[^a-z0-9]+`)
})

// remoteName is fork-<owner>, lowercased, with other characters as "-".
func remoteName(owner string) string {
	s := strings.Trim(nonAlnum().ReplaceAllString(strings.ToLower(owner), "-"), "-")
	if s == "" {
		return "fork"
	}
	return "fork-" + s
}

// encodeRepoPath makes an absolute path one directory name: the leading
// separator dropped, the others (and ":") as "-".
func encodeRepoPath(p string) string {
	p = strings.TrimLeft(filepath.Clean(p), `/\`)
	p = strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(p)
	return orDefault(p, "root")
}

// renderCheckout is one checkout's text.
func renderCheckout(c *Checkout) string {
	v := &view{}
	head := fmt.Sprintf("# Checked Out Pull Request #%d", c.PRNumber)
	if c.Reused {
		head = fmt.Sprintf("# Pull Request #%d Worktree", c.PRNumber)
	}
	v.add(head, "")
	v.field("Title", c.data.Title)
	v.field("URL", c.URL)
	v.field("Base", c.data.BaseRefName)
	v.field("Head", c.data.HeadRefName)
	v.field("Local branch", c.Branch)
	v.field("Worktree", c.WorktreePath)
	v.field("Remote", c.Remote)
	v.field("Remote URL", c.remoteURL)
	v.field("Cross repository", c.data.IsCrossRepository)
	v.field("Maintainer can modify", c.data.MaintainerCanModify)
	if c.Reused {
		v.add("", "Reused the existing PR worktree.")
	} else {
		v.add("", "Created a dedicated worktree for this PR and set its branch to push back to the PR's head branch.")
	}
	return v.String()
}

// prPush runs pr_push: a branch made by pr_checkout pushed back to its
// PR's head branch, as recorded in the branch's git config.
func (t *Tool) prPush(ctx context.Context, a *args) (*outcome, error) {
	root, err := t.git(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, tool.Errorf("Current git repository is unavailable: run pr_push inside the PR's worktree or checkout.")
	}
	current, _ := gitIn(ctx, root, "symbolic-ref", "--short", "HEAD")
	local := a.Branch
	if local == "" {
		if local = current; local == "" {
			return nil, tool.Errorf("Current git branch is unavailable. Pass `branch` explicitly.")
		}
	}
	if _, err := gitIn(ctx, root, "rev-parse", "--verify", "--quiet", "refs/heads/"+local); err != nil {
		return nil, tool.Errorf("local branch %s does not exist", local)
	}
	get := func(key string) string {
		v, _ := gitIn(ctx, root, "config", "--get", "branch."+local+"."+key)
		return v
	}
	headRef := get("ompPrHeadRef")
	if headRef == "" {
		return nil, tool.Errorf("branch %s has no PR push metadata; check it out via op: pr_checkout first", local)
	}
	remote := orDefault(get("pushRemote"), get("remote"))
	if remote == "" {
		return nil, tool.Errorf("branch %s has no configured push remote", local)
	}
	src := "refs/heads/" + local
	if current == local {
		src = "HEAD"
	}
	cmd := []string{"push"}
	if a.ForceWithLease {
		cmd = append(cmd, "--force-with-lease")
	}
	if _, err := gitIn(ctx, root, append(cmd, remote, src+":refs/heads/"+headRef)...); err != nil {
		return nil, err
	}
	remoteURL, _ := gitIn(ctx, root, "remote", "get-url", remote)
	prURL := get("ompPrUrl")
	v := &view{}
	v.add("# Pushed Pull Request Branch", "")
	v.field("Local branch", local)
	v.field("Remote", remote)
	v.field("Remote branch", headRef)
	v.field("Remote URL", remoteURL)
	v.field("PR", prURL)
	v.field("Force with lease", a.ForceWithLease)
	v.add("", "Pushed "+local+" to "+remote+":"+headRef+".")
	return &outcome{text: v.String(), sourceURL: prURL, details: &Details{Branch: local, Remote: remote, RemoteBranch: headRef}}, nil
}
