package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// theme holds the styles the UI draws with.
type theme struct {
	name     string // "dark", "light" or "plain"
	user     lipgloss.Style
	userBar  lipgloss.Style
	dim      lipgloss.Style
	accent   lipgloss.Style
	ok       lipgloss.Style
	err      lipgloss.Style
	warn     lipgloss.Style
	add      lipgloss.Style
	del      lipgloss.Style
	hunk     lipgloss.Style
	selected lipgloss.Style
	label    lipgloss.Style
	title    lipgloss.Style
	code     lipgloss.Style // inline code
	str      lipgloss.Style // string literals in code blocks
	num      lipgloss.Style // numbers and constants
	keyword  lipgloss.Style // keywords
	border   color.Color
	plain    bool
}

// newTheme returns the dark or light theme, or one without colours.
func newTheme(dark, noColor bool) theme {
	if noColor {
		s := lipgloss.NewStyle()
		return theme{name: "plain", user: s.Bold(true), userBar: s, dim: s, accent: s.Bold(true), ok: s, err: s.Bold(true),
			warn: s, add: s, del: s, hunk: s, selected: s.Reverse(true), label: s.Bold(true), title: s.Bold(true),
			code: s, str: s, num: s, keyword: s, plain: true}
	}
	pick := func(d, l string) color.Color {
		if dark {
			return lipgloss.Color(d)
		}
		return lipgloss.Color(l)
	}
	s := lipgloss.NewStyle()
	t := theme{
		name:     "light",
		user:     s.Foreground(pick("#e6edf3", "#1f2328")).Bold(true),
		userBar:  s.Foreground(pick("#6ea8fe", "#2f6fd6")),
		dim:      s.Foreground(pick("#8b949e", "#6e7781")),
		accent:   s.Foreground(pick("#6ea8fe", "#2f6fd6")),
		ok:       s.Foreground(pick("#3fb950", "#1a7f37")),
		err:      s.Foreground(pick("#ff7b72", "#cf222e")),
		warn:     s.Foreground(pick("#d29922", "#9a6700")),
		add:      s.Foreground(pick("#3fb950", "#1a7f37")),
		del:      s.Foreground(pick("#ff7b72", "#cf222e")),
		hunk:     s.Foreground(pick("#d2a8ff", "#8250df")),
		selected: s.Foreground(pick("#0d1117", "#ffffff")).Background(pick("#6ea8fe", "#2f6fd6")),
		label:    s.Foreground(pick("#e3b341", "#7d4e00")),
		title:    s.Bold(true),
		code:     s.Foreground(pick("#ffa657", "#953800")),
		str:      s.Foreground(pick("#a5d6ff", "#0a3069")),
		num:      s.Foreground(pick("#79c0ff", "#0550ae")),
		keyword:  s.Foreground(pick("#ff7b72", "#cf222e")),
		border:   pick("#30363d", "#d0d7de"),
	}
	if dark {
		t.name = "dark"
	}
	return t
}

// setTheme switches to the dark or light theme (no change when colours
// are off) and tells the UI's extensions which is in use.
func (m *model) setTheme(dark bool) {
	if (m.th.name == "dark") != dark && !m.opts.NoColor {
		m.th = newTheme(dark, m.opts.NoColor)
		m.r = &renderer{th: m.th, width: m.width, custom: m.r.custom, tools: m.r.tools, ctx: m.r.ctx, full: m.r.full}
		m.ed.restyle(m.th)
	}
	if m.ui != nil && !m.opts.NoColor {
		m.ui.theme.Store(m.th.name)
	}
}
