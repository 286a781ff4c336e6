package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// status holds the footer's facts, read from the session by a command
// (never inside Update or View).
type status struct {
	model         string
	thinking      string
	contextTokens int
	window        int
	cost          float64
	queued        int
	jobs          int
	sessionName   string
	cwd           string
	branch        string
	gitMarks      string // "*N +N ?N": unstaged, staged, untracked ("" when clean)
}

// readStatus reads the footer's facts from the session.
func readStatus(s Session, opts Options) status {
	out := quickStatus(s, opts)
	out.contextTokens = s.Compactor().ContextTokens()
	out.cost = s.Stats().Cost
	return out
}

// quickStatus reads the facts that cost nothing to get, for the first
// frame; counting the context's tokens (which loads a tokenizer) is left
// to readStatus, run in the background.
func quickStatus(s Session, opts Options) status {
	st := s.State()
	out := status{thinking: string(st.ThinkingLevel), queued: st.QueuedMessageCount, sessionName: st.SessionName, cwd: opts.Cwd,
		jobs: s.Tools().RunningJobs()}
	if st.Model != nil {
		out.model = st.Model.Provider + "/" + st.Model.ID
		out.window = st.Model.ContextWindow
	}
	out.branch = gitBranch(opts.Cwd)
	return out
}

// refreshStatus reads the footer's facts in the background.
func (m *model) refreshStatus() tea.Cmd {
	ctx, s, opts := m.ctx, m.s, m.opts
	m.statusSeq++
	seq := m.statusSeq
	return func() tea.Msg {
		st := readStatus(s, opts)
		st.gitMarks = gitMarks(ctx, opts.Cwd)
		return statusMsg{st: st, seq: seq}
	}
}

// footer draws the status line: model and thinking level, context use
// and cost on the left; the session's title, the directory, the git
// branch and its dirty marks (see gitMarks) on the right.
func (m *model) footer() string {
	st := m.status
	left := st.model
	if left == "" {
		left = "no model (/model)"
	}
	if st.thinking != "" && st.thinking != "off" {
		left += " · " + st.thinking
	}
	if st.window > 0 {
		pct := float64(st.contextTokens) / float64(st.window) * 100
		left += fmt.Sprintf(" · ctx %s/%s (%.0f%%)", human(st.contextTokens), human(st.window), pct)
	} else if st.contextTokens > 0 {
		left += " · ctx " + human(st.contextTokens)
	}
	if st.cost > 0 {
		left += fmt.Sprintf(" · $%.3f", st.cost)
	}
	if st.jobs > 0 {
		left += fmt.Sprintf(" · %d job(s) running", st.jobs)
	}
	if m.s.Model().FastMode() {
		left += " · fast"
	}
	if m.loop.on {
		left += " · loop"
	}
	if p := m.planFooter(); p != "" {
		left += " · " + p
	}
	for _, k := range sortedKeys(m.extStatus) {
		left += " · " + clean(m.extStatus[k])
	}
	right := shortPath(st.cwd)
	if st.branch != "" {
		right += " (" + strings.TrimSpace(st.branch+" "+st.gitMarks) + ")"
	}
	if st.sessionName != "" {
		// The title goes first when the line has room for it.
		if titled := clean(st.sessionName) + " · " + right; m.width-ansi.StringWidth(left)-ansi.StringWidth(titled)-1 >= 2 {
			right = titled
		}
	}
	gap := m.width - ansi.StringWidth(left) - ansi.StringWidth(right) - 1
	line := left
	if gap >= 2 {
		line += strings.Repeat(" ", gap) + right
	}
	return m.th.dim.Render(ansi.Truncate(line, max(10, m.width-1), "…"))
}

// human writes a token count as 950, 12.3k or 1.2M.
func human(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 1_000_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	}
	return strconv.FormatFloat(float64(n)/1_000_000, 'f', 1, 64) + "M"
}

func itoa(n int) string { return strconv.Itoa(n) }

// shortPath writes a path under the home directory as ~/….
func shortPath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && home != "/" {
		if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
			if rel == "." {
				return "~"
			}
			return "~/" + rel
		}
	}
	return p
}

// gitBranch reads the branch checked out in dir's repository from its
// HEAD file ("" outside a repository; a short hash when detached).
func gitBranch(dir string) string {
	for d := dir; d != ""; d = filepath.Dir(d) {
		head := filepath.Join(d, ".git", "HEAD")
		if fi, err := os.Stat(filepath.Join(d, ".git")); err == nil && !fi.IsDir() {
			// A worktree or submodule: .git names the real directory.
			b, err := os.ReadFile(filepath.Join(d, ".git"))
			if err != nil {
				return ""
			}
			gitdir := strings.TrimSpace(strings.TrimPrefix(string(b), "gitdir:"))
			if !filepath.IsAbs(gitdir) {
				gitdir = filepath.Join(d, gitdir)
			}
			head = filepath.Join(gitdir, "HEAD")
		}
		if b, err := os.ReadFile(head); err == nil {
			s := strings.TrimSpace(string(b))
			if ref, ok := strings.CutPrefix(s, "ref: refs/heads/"); ok {
				return ref
			}
			return s[:min(8, len(s))]
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return ""
}
