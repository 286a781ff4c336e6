package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/tool"
)

// The commands that show what the session is made of: its spending
// (/usage), its context (/context), its tools, jobs and agents, the
// extensions, and facts for debugging.

// cmdUsage shows the session's tokens and cost per model.
func (m *model) cmdUsage(string) tea.Cmd {
	us := m.s.Conversation().UsageByModel()
	if len(us) == 0 {
		return m.printSection(m.r.warning("No usage yet: no model has answered in this session"))
	}
	lines := []string{m.th.title.Render("Usage of this session") + m.th.dim.Render("  (every answer stored in the session file)")}
	lines = append(lines, m.th.dim.Render(fmt.Sprintf("  %-36s %8s %9s %9s %10s %10s %10s", "model", "answers", "input", "output", "cache read", "cache write", "cost")))
	var total float64
	var tokens, answers int
	for _, u := range us {
		t := u.Tokens
		lines = append(lines, fmt.Sprintf("  %-36s %8d %9s %9s %10s %10s %10s", oneLine(clean(u.Model), 36), u.Requests,
			human(t.Input), human(t.Output), human(t.CacheRead), human(t.CacheWrite), dollars(t.Cost.Total)))
		total += t.Cost.Total
		tokens += t.TotalTokens
		answers += u.Requests
	}
	if len(us) > 1 {
		lines = append(lines, fmt.Sprintf("  %-36s %8d %9s %43s", "total", answers, human(tokens)+" tok", dollars(total)))
	}
	return m.printSection(strings.Join(lines, "\n"))
}

// dollars formats a cost.
func dollars(c float64) string { return fmt.Sprintf("$%.4f", c) }

// cmdContext shows what fills the context window, by part.
func (m *model) cmdContext(string) tea.Cmd {
	cu := m.s.Conversation().ContextUsage()
	if cu.Window <= 0 {
		return m.printSection(m.r.warning("Context usage is unavailable: no model (or no context window) is selected; pick one with /model"))
	}
	share := func(n int) string { return fmt.Sprintf("%5.1f%%", float64(n)*100/float64(cu.Window)) }
	lines := []string{m.th.title.Render("Context usage") + m.th.dim.Render(fmt.Sprintf("  %s · %s of %s tokens (%s) · estimated", cu.Model, human(cu.Used), human(cu.Window), strings.TrimSpace(share(cu.Used))))}
	lines = append(lines, "  "+m.contextBar(cu.Used, cu.Buffer, cu.Window, 50))
	for _, p := range cu.Parts {
		lines = append(lines, fmt.Sprintf("  %-18s %9s  %s", p.Label, human(p.Tokens), share(p.Tokens)))
	}
	lines = append(lines, m.th.dim.Render(fmt.Sprintf("  %-18s %9s  %s", "Compaction buffer", human(cu.Buffer), share(cu.Buffer))))
	lines = append(lines, fmt.Sprintf("  %-18s %9s  %s", "Free", human(cu.Free), share(cu.Free)))
	return m.printSection(strings.Join(lines, "\n"))
}

// contextBar draws used, buffer and free space of the window in width
// cells.
func (m *model) contextBar(used, buffer, window, width int) string {
	u := min(width, used*width/window)
	b := min(width-u, buffer*width/window)
	return m.th.accent.Render(strings.Repeat("█", u)) + m.th.dim.Render(strings.Repeat("▒", b)+strings.Repeat("░", width-u-b))
}

// cmdTools lists the tools the model is offered.
func (m *model) cmdTools(string) tea.Cmd {
	tools := m.s.Agent().Tools()
	lines := []string{m.th.title.Render(fmt.Sprintf("Tools offered to the model (%d)", len(tools)))}
	if len(tools) == 0 {
		lines = append(lines, "  none (--no-tools, or --tools named none)")
	}
	for _, t := range tools {
		d := t.Definition()
		desc, _, _ := strings.Cut(strings.TrimSpace(d.Description), "\n")
		lines = append(lines, fmt.Sprintf("  %-20s %s", d.Name, oneLine(clean(desc), max(20, m.width-26))))
	}
	return m.printSection(strings.Join(lines, "\n"))
}

// cmdJobs shows the background jobs: running ones and the last finished.
func (m *model) cmdJobs(string) tea.Cmd {
	jobs := m.s.Tools().Services().Jobs
	if jobs == nil {
		return m.printSection(m.r.warning("Background jobs are unavailable in this session"))
	}
	all := jobs.All()
	var running, done []string
	for _, j := range all {
		line := fmt.Sprintf("  %-10s %-5s %-10s %8s  %s", j.ID, j.Type, strings.ToLower(j.Status), (time.Duration(j.DurationMs) * time.Millisecond).Round(time.Second), oneLine(clean(j.Label), max(20, m.width-44)))
		if j.Status == "Running" {
			running = append(running, line)
		} else {
			done = append(done, line)
		}
	}
	lines := []string{m.th.title.Render("Background jobs"), fmt.Sprintf("  running: %d", len(running))}
	if len(all) == 0 {
		lines = append(lines, m.th.dim.Render("  No background jobs yet"))
	}
	if len(running) > 0 {
		lines = append(lines, m.th.title.Render("Running"))
		lines = append(lines, running...)
	}
	if len(done) > 0 {
		lines = append(lines, m.th.title.Render("Recent"))
		lines = append(lines, done[max(0, len(done)-5):]...)
	}
	return m.printSection(strings.Join(lines, "\n"))
}

// cmdChangelog says where the changes of this build are described.
func (m *model) cmdChangelog(string) tea.Cmd {
	return m.printSection(m.r.notice("gopi ships no changelog file: its history is the git log of the gopi repository, and `gopi version` names the commit this build comes from"))
}

// cmdDebug offers the debugging aids: facts about the system and the
// session, the conversation written to a file, the artifacts folder.
func (m *model) cmdDebug(string) tea.Cmd {
	items := []pickItem{
		{label: "View: system info" + m.th.dim.Render("  build, system, session file, agent directory"), value: "system"},
		{label: "Export: conversation transcript" + m.th.dim.Render("  the conversation as Markdown in a temporary file"), value: "transcript"},
		{label: "Show: artifact folder" + m.th.dim.Render("  where this session's spilled tool output is"), value: "artifacts"},
	}
	m.picker = &picker{title: "Debug", items: items, onPick: func(it pickItem) tea.Cmd {
		switch it.value.(string) {
		case "transcript":
			return m.debugTranscript()
		case "artifacts":
			return m.debugArtifacts()
		}
		return m.debugSystem()
	}}
	return nil
}

// debugSystem prints facts for a bug report.
func (m *model) debugSystem() tea.Cmd {
	file := m.s.SessionFile()
	if file == "" {
		file = "(not saved: --no-session)"
	}
	lines := []string{
		m.th.title.Render("System info"),
		fmt.Sprintf("  system      %s/%s, %d CPUs, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version()),
		"  session     " + file,
		"  agent dir   " + m.s.Config().AgentDir,
		"  cwd         " + m.opts.Cwd,
		fmt.Sprintf("  terminal    %dx%d", m.width, m.height),
		m.th.dim.Render("  `gopi version` names the build; /dump copies the conversation; /export writes it as a web page"),
	}
	return m.printSection(strings.Join(lines, "\n"))
}

// debugTranscript writes the conversation as Markdown to a temporary file.
func (m *model) debugTranscript() tea.Cmd {
	text := m.s.Conversation().Text()
	if text == "" {
		return m.printSection(m.r.errorLine("No messages to write yet"))
	}
	f, err := os.CreateTemp("", "gopi-transcript-*.md")
	if err != nil {
		return m.printSection(m.r.errorLine("Could not write the transcript: " + err.Error()))
	}
	path := f.Name()
	f.Close()
	if err := tool.WriteFileAtomic(path, []byte(text), 0o600); err != nil {
		return m.printSection(m.r.errorLine("Could not write the transcript: " + err.Error()))
	}
	return m.printSection(m.r.notice("Transcript written to:\n" + path))
}

// debugArtifacts says where the session's artifacts are.
func (m *model) debugArtifacts() tea.Cmd {
	file := m.s.SessionFile()
	if file == "" {
		return m.printSection(m.r.notice("No artifact folder: the session is kept in memory (--no-session)"))
	}
	dir := strings.TrimSuffix(file, ".jsonl") + string(filepath.Separator)
	if _, err := os.Stat(dir); err != nil {
		return m.printSection(m.r.notice("No artifacts yet; they will be in " + dir))
	}
	return m.printSection(m.r.notice("Artifacts: " + dir))
}
