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
	// Some commands ask for a refresh from their own goroutine: the
	// count is atomic.
	seq := m.statusSeq.Add(1)
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
	line := left
	if right := m.footerRight(ansi.StringWidth(left)); right != "" {
		line += strings.Repeat(" ", m.width-ansi.StringWidth(left)-ansi.StringWidth(right)-1) + right
	}
	return m.th.dim.Render(ansi.Truncate(line, max(10, m.width-1), "…"))
}

// footerRight is the footer's right part for a left part leftWidth
// columns wide, shortened step by step as omp's status line is: the
// session title goes first, then the directory loses its start ("…/o4/proj",
// down to 8 columns), then the directory goes; the branch and its marks
// stay as long as they fit. "" when nothing fits with a 2-column gap.
func (m *model) footerRight(leftWidth int) string {
	st := m.status
	room := m.width - 1 - leftWidth - 2
	dir := shortPath(st.cwd)
	git := ""
	if st.branch != "" {
		git = "(" + strings.TrimSpace(st.branch+" "+st.gitMarks) + ")"
	}
	join := func(dir string) string { return strings.TrimSpace(dir + " " + git) }
	full := join(dir)
	if st.sessionName != "" {
		if titled := clean(st.sessionName) + " · " + full; ansi.StringWidth(titled) <= room {
			return titled
		}
	}
	if ansi.StringWidth(full) <= room {
		return full
	}
	const minDir = 8 // "…" and a few characters, as omp's floor
	keep := room     // columns for the directory
	if git != "" {
		keep -= ansi.StringWidth(git) + 1
	}
	if keep >= minDir {
		return join(ansi.TruncateLeft(dir, ansi.StringWidth(dir)-(keep-1), "…"))
	}
	if git != "" && ansi.StringWidth(git) <= room {
		return git
	}
	return ""
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
