package github

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// listItem is an entry of gh issue list / gh pr list.
type listItem struct {
	Number    int     `json:"number"`
	Title     string  `json:"title"`
	State     string  `json:"state"`
	Author    *user   `json:"author"`
	Labels    []label `json:"labels"`
	UpdatedAt string  `json:"updatedAt"`
	URL       string  `json:"url"`
}

// list runs gh issue list / gh pr list for a bare issue:// or pr://
// URL, passing state, limit, author and label through.
func (r *Reader) list(ctx context.Context, t *target) (string, error) {
	cmd := []string{t.kind, "list", "--json", "number,title,state,author,labels,updatedAt,url"}
	if t.repo != "" {
		cmd = append(cmd, "--repo", t.repo)
	}
	states := []string{"open", "closed", "all"}
	if t.kind == PRScheme {
		states = append(states, "merged")
	}
	if s := t.query.Get("state"); s != "" {
		ok := false
		for _, v := range states {
			ok = ok || v == s
		}
		if !ok {
			return "", tool.Errorf("state must be one of %s for %s:// lists, not %q", strings.Join(states, ", "), t.kind, s)
		}
		cmd = append(cmd, "--state", s)
	}
	if l := t.query.Get("limit"); l != "" {
		if n, err := strconv.Atoi(l); err != nil || n <= 0 {
			return "", tool.Errorf("limit must be a positive number, not %q", l)
		}
		cmd = append(cmd, "--limit", l)
	}
	cmd = appendFlag(cmd, "--author", t.query.Get("author"))
	for _, l := range t.query["label"] {
		cmd = appendFlag(cmd, "--label", l)
	}
	var items []listItem
	if err := r.gh.runJSON(ctx, cmd, callOpts{repoGiven: t.repo != ""}, &items); err != nil {
		return "", err
	}
	head := "# Issues"
	if t.kind == PRScheme {
		head = "# Pull Requests"
	}
	if t.repo != "" {
		head += " in " + t.repo
	}
	v := &view{}
	v.add(head)
	v.add("")
	if len(items) == 0 {
		v.add("None found.")
		return v.String(), nil
	}
	prefix := t.kind + "://"
	if t.repo != "" {
		prefix += t.repo + "/"
	}
	for _, it := range items {
		line := fmt.Sprintf("- %s%d %s [%s]", prefix, it.Number, orDefault(it.Title, "Untitled"), it.State)
		if a := it.Author.display(); a != "" {
			line += " " + a
		}
		if l := labelNames(it.Labels); l != "" {
			line += " (" + l + ")"
		}
		if it.UpdatedAt != "" {
			line += " · updated " + it.UpdatedAt
		}
		v.add(line)
	}
	return v.String(), nil
}

// asToolError is errors.As for *tool.Error.
func asToolError(err error, te **tool.Error) bool { return errors.As(err, te) }

// diffFile is one file's part of a unified diff.
type diffFile struct {
	path  string
	text  string
	added int
	gone  int
}

// splitDiff cuts a unified diff into its files.
func splitDiff(diff string) []diffFile {
	var files []diffFile
	for _, chunk := range strings.SplitAfter(diff, "\n") {
		if strings.HasPrefix(chunk, "diff --git ") {
			f := diffFile{}
			if _, b, ok := strings.Cut(strings.TrimSpace(chunk), " b/"); ok {
				f.path = b
			}
			files = append(files, f)
		}
		if len(files) == 0 {
			continue
		}
		f := &files[len(files)-1]
		f.text += chunk
		switch {
		case strings.HasPrefix(chunk, "+++"), strings.HasPrefix(chunk, "---"):
		case strings.HasPrefix(chunk, "+"):
			f.added++
		case strings.HasPrefix(chunk, "-"):
			f.gone++
		}
	}
	return files
}

// diffView is pr://N/diff (the files), pr://N/diff/all (the diff) or
// pr://N/diff/<i> (file i, from 1) from the cached diff.
func diffView(raw string, t *target, diff string) (*tool.HostURIContent, error) {
	if t.diff == "all" {
		return &tool.HostURIContent{Content: diff, ContentType: "text/plain"}, nil
	}
	files := splitDiff(diff)
	if t.diff == "list" {
		v := &view{}
		v.add(fmt.Sprintf("# Pull Request #%d diff: %d files", t.number, len(files)), "")
		base := strings.TrimSuffix(strings.SplitN(raw, "?", 2)[0], "/")
		for i, f := range files {
			v.add(fmt.Sprintf("%d. %s (+%d -%d) → %s/%d", i+1, f.path, f.added, f.gone, base, i+1))
		}
		v.add("", "Full diff: "+base+"/all")
		return &tool.HostURIContent{Content: v.String(), ContentType: "text/plain"}, nil
	}
	i, err := strconv.Atoi(t.diff)
	if err != nil || i < 1 || i > len(files) {
		return nil, tool.Errorf("%s: no such file; the diff has %d files, numbered from 1 (see pr://%d/diff)", raw, len(files), t.number)
	}
	return &tool.HostURIContent{Content: files[i-1].text, ContentType: "text/plain"}, nil
}
