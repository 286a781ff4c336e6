package github

import (
	"strconv"
	"strings"
)

// Fields of gh issue view and gh pr view --json that the views show.
var (
	issueFields           = []string{"author", "body", "comments", "createdAt", "labels", "number", "state", "stateReason", "title", "updatedAt", "url"}
	issueFieldsNoComments = []string{"author", "body", "createdAt", "labels", "number", "state", "stateReason", "title", "updatedAt", "url"}
	prFields              = []string{"author", "baseRefName", "body", "comments", "createdAt", "files", "headRefName", "isDraft", "labels", "mergeStateStatus", "number", "reviews", "reviewDecision", "state", "title", "updatedAt", "url"}
	prFieldsNoComments    = []string{"author", "baseRefName", "body", "createdAt", "files", "headRefName", "isDraft", "labels", "mergeStateStatus", "number", "reviewDecision", "state", "title", "updatedAt", "url"}
)

// FilePreviewLimit is how many changed files a pull request view lists.
const FilePreviewLimit = 50

// comment is an issue or pull request comment.
type comment struct {
	Author      *user  `json:"author"`
	Body        string `json:"body"`
	CreatedAt   string `json:"createdAt"`
	URL         string `json:"url"`
	IsMinimized bool   `json:"isMinimized"`
}

// review is a pull request review.
type review struct {
	Author      *user  `json:"author"`
	Body        string `json:"body"`
	State       string `json:"state"`
	SubmittedAt string `json:"submittedAt"`
	Commit      *struct {
		OID string `json:"oid"`
	} `json:"commit"`
}

// prFile is a file a pull request changes.
type prFile struct {
	Path       string `json:"path"`
	Additions  int    `json:"additions"`
	Deletions  int    `json:"deletions"`
	ChangeType string `json:"changeType"`
}

// issueData is gh issue view's JSON.
type issueData struct {
	Number      int       `json:"number"`
	Title       string    `json:"title"`
	State       string    `json:"state"`
	StateReason string    `json:"stateReason"`
	Author      *user     `json:"author"`
	CreatedAt   string    `json:"createdAt"`
	UpdatedAt   string    `json:"updatedAt"`
	Labels      []label   `json:"labels"`
	URL         string    `json:"url"`
	Body        string    `json:"body"`
	Comments    []comment `json:"comments"`
}

// prData is gh pr view's JSON.
type prData struct {
	Number           int       `json:"number"`
	Title            string    `json:"title"`
	State            string    `json:"state"`
	IsDraft          *bool     `json:"isDraft"`
	Author           *user     `json:"author"`
	BaseRefName      string    `json:"baseRefName"`
	HeadRefName      string    `json:"headRefName"`
	ReviewDecision   string    `json:"reviewDecision"`
	MergeStateStatus string    `json:"mergeStateStatus"`
	CreatedAt        string    `json:"createdAt"`
	UpdatedAt        string    `json:"updatedAt"`
	Labels           []label   `json:"labels"`
	URL              string    `json:"url"`
	Body             string    `json:"body"`
	Files            []prFile  `json:"files"`
	Reviews          []review  `json:"reviews"`
	Comments         []comment `json:"comments"`
}

// renderIssue is the issue:// view.
func renderIssue(d *issueData, ref string, comments bool) string {
	var v view
	num := ref
	if d.Number > 0 {
		num = strconv.Itoa(d.Number)
	}
	v.add("# Issue #"+num+": "+orDefault(d.Title, "Untitled"), "")
	v.field("State", d.State)
	v.field("State reason", d.StateReason)
	v.field("Author", d.Author.display())
	v.field("Created", d.CreatedAt)
	v.field("Updated", d.UpdatedAt)
	v.field("Labels", labelNames(d.Labels))
	v.field("URL", d.URL)
	v.add("", "## Body", "", orDefault(cleanText(d.Body), "No description provided."))
	if comments {
		v.section(renderComments(d.Comments))
	}
	return v.String()
}

// renderPR is the pr:// view.
func renderPR(d *prData, ref string, comments bool) string {
	var v view
	num := orDefault(ref, "current")
	if d.Number > 0 {
		num = strconv.Itoa(d.Number)
	}
	v.add("# Pull Request #"+num+": "+orDefault(d.Title, "Untitled"), "")
	v.field("State", d.State)
	v.field("Draft", d.IsDraft)
	v.field("Author", d.Author.display())
	v.field("Base", d.BaseRefName)
	v.field("Head", d.HeadRefName)
	v.field("Review decision", d.ReviewDecision)
	v.field("Merge state", d.MergeStateStatus)
	v.field("Created", d.CreatedAt)
	v.field("Updated", d.UpdatedAt)
	v.field("Labels", labelNames(d.Labels))
	v.field("URL", d.URL)
	v.add("", "## Body", "", orDefault(cleanText(d.Body), "No description provided."))
	v.section(renderFiles(d.Files))
	if comments {
		v.section(renderReviews(d.Reviews))
		v.section(renderComments(d.Comments))
	}
	return v.String()
}

// section appends lines after a blank line, when there are any.
func (v *view) section(lines []string) {
	if len(lines) > 0 {
		v.add("")
		v.add(lines...)
	}
}

// renderFiles lists the first FilePreviewLimit changed files.
func renderFiles(files []prFile) []string {
	if len(files) == 0 {
		return nil
	}
	lines := []string{"## Files (" + strconv.Itoa(len(files)) + ")", ""}
	for _, f := range files[:min(len(files), FilePreviewLimit)] {
		lines = append(lines, "- "+orDefault(f.Path, "(unknown file)")+" ["+orDefault(f.ChangeType, "CHANGED")+"] (+"+
			strconv.Itoa(f.Additions)+" -"+strconv.Itoa(f.Deletions)+")")
	}
	if len(files) > FilePreviewLimit {
		lines = append(lines, "- ... "+strconv.Itoa(len(files)-FilePreviewLimit)+" more files")
	}
	return lines
}

// renderReviews is the reviews section of a pull request view.
func renderReviews(reviews []review) []string {
	if len(reviews) == 0 {
		return nil
	}
	lines := []string{"## Reviews (" + strconv.Itoa(len(reviews)) + ")", ""}
	for _, r := range reviews {
		head := "### " + orDefault(r.Author.display(), "unknown")
		if r.SubmittedAt != "" {
			head += " - " + r.SubmittedAt
		}
		if r.State != "" {
			head += " [" + r.State + "]"
		}
		lines = append(lines, head)
		if r.Commit != nil && r.Commit.OID != "" {
			lines = append(lines, "", "Commit: "+shortSHA(r.Commit.OID))
		}
		lines = append(lines, "", orDefault(cleanText(r.Body), "No review body."), "")
	}
	return lines
}

// renderComments is the comments section; minimized comments are
// counted, not shown.
func renderComments(comments []comment) []string {
	if len(comments) == 0 {
		return nil
	}
	var visible []comment
	for _, c := range comments {
		if !c.IsMinimized {
			visible = append(visible, c)
		}
	}
	hidden := len(comments) - len(visible)
	if len(visible) == 0 {
		return []string{"## Comments", "", "No visible comments. Minimized comments omitted: " + strconv.Itoa(hidden) + "."}
	}
	lines := []string{"## Comments (" + strconv.Itoa(len(visible)) + ")", ""}
	for _, c := range visible {
		head := "### " + orDefault(c.Author.display(), "unknown")
		if c.CreatedAt != "" {
			head += " · " + c.CreatedAt
		}
		lines = append(lines, head, "", orDefault(cleanText(c.Body), "No comment body."))
		if c.URL != "" {
			lines = append(lines, "", "URL: "+c.URL)
		}
		lines = append(lines, "")
	}
	if hidden > 0 {
		lines = append(lines, "Minimized comments omitted: "+strconv.Itoa(hidden)+".")
	}
	return lines
}

// joinFields is a --json field list.
func joinFields(f []string) string { return strings.Join(f, ",") }
