package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/session"
)

// The welcome block is printed once, at the start, above everything else
// (omp shows one too; its startup.quiet setting turns it off, and
// Options.Welcome carries that here): a rounded box titled with the
// version, the model and its provider on the left; on the right tips,
// the language servers found for the project and the directory's recent
// sessions, parted by rules as omp parts them. Narrow windows get one
// column. The servers are only detected (root markers present, program
// found): none is started for the block, they start on first use.

// Layout of the welcome block.
const (
	welcomeMaxWidth  = 100 // the box is never wider
	welcomeLeftWidth = 26  // the left column, when there are two
	welcomeMinRight  = 24  // narrower right columns put everything in one column
	welcomeSessions  = 3   // recent sessions listed
	welcomeLSPTypes  = 3   // file types shown per language server
)

// welcomeTips are the tips of the welcome block: a key, what it does.
var welcomeTips = [][2]string{
	{"/", "for commands"},
	{"@", "to attach a file"},
	{"!", "to run a shell command"},
	{"shift+tab", "for the thinking level"},
	{"/hotkeys", "for every key"},
}

// welcome draws the welcome block for a window width wide.
func (m *model) welcome(width int) string {
	box := min(welcomeMaxWidth, width-2)
	if box < 20 {
		return ""
	}
	model, provider := "no model (/model)", ""
	if md := m.s.Agent().Model(); md != nil {
		model, provider = md.ID, md.Provider
		if md.Name != "" {
			model = md.Name
		}
	}
	left := []string{"", m.th.title.Render("Welcome to gopi"), "", model}
	if provider != "" {
		left = append(left, m.th.dim.Render(provider))
	}
	var right []string
	right = append(right, m.th.accent.Render("Tips"))
	for _, t := range welcomeTips {
		right = append(right, t[0]+m.th.dim.Render(" "+t[1]))
	}
	two := box-3-welcomeLeftWidth >= welcomeMinRight
	rule := m.th.dim.Render(strings.Repeat("─", max(1, box-5-welcomeLeftWidth)))
	if !two {
		rule = m.th.dim.Render(strings.Repeat("─", max(1, box-4)))
	}
	right = append(right, rule, m.th.accent.Render("LSP Servers"))
	right = append(right, m.welcomeLSP()...)
	right = append(right, rule, m.th.accent.Render("Recent sessions"))
	right = append(right, m.recentSessions()...)

	inner := box - 2
	var rows []string
	if two {
		lw, rw := welcomeLeftWidth, box-3-welcomeLeftWidth
		for i := range max(len(left), len(right)) {
			l, r := "", ""
			if i < len(left) {
				l = center(left[i], lw)
			}
			if i < len(right) {
				r = " " + right[i]
			}
			rows = append(rows, m.th.dim.Render("│")+fit(l, lw)+m.th.dim.Render("│")+fit(r, rw)+m.th.dim.Render("│"))
		}
	} else {
		for _, l := range append(append(left, ""), right...) {
			rows = append(rows, m.th.dim.Render("│")+fit(" "+l, inner)+m.th.dim.Render("│"))
		}
	}
	title := "─── gopi " + m.opts.Version + " "
	if m.opts.Version == "" {
		title = "─── gopi "
	}
	title = ansi.Truncate(title, inner, "")
	top := m.th.dim.Render("╭" + title + strings.Repeat("─", inner-ansi.StringWidth(title)) + "╮")
	bottom := "╰" + strings.Repeat("─", inner) + "╯"
	if two {
		bottom = "╰" + strings.Repeat("─", welcomeLeftWidth) + "┴" + strings.Repeat("─", box-3-welcomeLeftWidth) + "╯"
	}
	return top + "\n" + strings.Join(rows, "\n") + "\n" + m.th.dim.Render(bottom)
}

// welcomeLSP lists the language servers the project would use, linters
// left out as omp leaves them out: name and its first file types. The
// marker says a server is found, not that it runs (nothing is started).
func (m *model) welcomeLSP() []string {
	var out []string
	if mgr := m.s.Tools().Services().LSP; mgr != nil {
		for _, srv := range mgr.Servers().List {
			if srv.IsLinter {
				continue
			}
			types := srv.FileTypes[:min(len(srv.FileTypes), welcomeLSPTypes)]
			out = append(out, m.th.accent.Render("●")+" "+srv.Name+" "+m.th.dim.Render(strings.Join(types, " ")))
		}
	}
	if len(out) == 0 {
		return []string{m.th.dim.Render("none found")}
	}
	return out
}

// recentSessions lists the directory's latest sessions other than this
// one: title (or first message) and how long ago.
func (m *model) recentSessions() []string {
	infos, _ := session.List(m.s.Tree().Locations(), m.opts.Cwd)
	cur := m.s.SessionFile()
	var out []string
	for _, in := range infos {
		if in.Path == cur {
			continue
		}
		name := in.Title
		if name == "" {
			name = in.FirstMessage
		}
		if name == "" {
			continue
		}
		out = append(out, "• "+oneLine(clean(name), 60)+m.th.dim.Render(" ("+ago(in.Modified)+")"))
		if len(out) == welcomeSessions {
			break
		}
	}
	if len(out) == 0 {
		return []string{m.th.dim.Render("none yet")}
	}
	return out
}

// center pads text on both sides to width (cut when wider).
func center(text string, width int) string {
	w := ansi.StringWidth(text)
	if w >= width {
		return ansi.Truncate(text, width, "…")
	}
	l := (width - w) / 2
	return strings.Repeat(" ", l) + text
}

// fit pads text to exactly width cells, cutting it with … when wider.
func fit(text string, width int) string {
	if w := ansi.StringWidth(text); w > width {
		text = ansi.Truncate(text, width, "…")
	}
	return text + strings.Repeat(" ", max(0, width-ansi.StringWidth(text)))
}

// ResumeHint is the line printed when the interactive mode ends on a
// saved session: the command that continues it.
func ResumeHint(sessionID string, color bool) string {
	line := fmt.Sprintf("Resume this session with gopi --resume %s", sessionID)
	if color {
		return "\n\x1b[2m" + line + "\x1b[22m\n"
	}
	return "\n" + line + "\n"
}
