package github

import (
	"fmt"
	"strings"
)

// user is a GitHub account as gh prints it (login, sometimes a name).
type user struct {
	Login string `json:"login"`
	Name  string `json:"name"`
}

// label is an issue or pull request label.
type label struct {
	Name string `json:"name"`
}

// display is the user as a view shows it: @login, else the name.
func (u *user) display() string {
	switch {
	case u == nil:
		return ""
	case u.Login != "":
		return "@" + u.Login
	}
	return u.Name
}

// labelNames joins the labels' names ("" for none).
func labelNames(labels []label) string {
	names := make([]string, 0, len(labels))
	for _, l := range labels {
		if l.Name != "" {
			names = append(names, l.Name)
		}
	}
	return strings.Join(names, ", ")
}

// view accumulates the lines of a rendered view.
type view struct{ lines []string }

// add appends lines as they are.
func (v *view) add(lines ...string) { v.lines = append(v.lines, lines...) }

// field appends "label: value" unless value is empty (nil, "" or a nil
// pointer).
func (v *view) field(label string, value any) {
	switch x := value.(type) {
	case nil:
		return
	case string:
		if x == "" {
			return
		}
	case *int:
		if x == nil {
			return
		}
		value = *x
	case *bool:
		if x == nil {
			return
		}
		value = *x
	}
	v.lines = append(v.lines, fmt.Sprintf("%s: %v", label, value))
}

// String is the view's text, trimmed.
func (v *view) String() string { return strings.TrimSpace(strings.Join(v.lines, "\n")) }

// cleanText normalises text from GitHub: line ends to \n, tabs to four
// spaces, outer blanks trimmed.
func cleanText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.TrimSpace(strings.ReplaceAll(s, "\t", "    "))
}

// firstLine is the first line of cleanText(s).
func firstLine(s string) string {
	line, _, _ := strings.Cut(cleanText(s), "\n")
	return line
}

// shortSHA is a commit id cut to 12 characters.
func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
