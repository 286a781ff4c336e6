package tui

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/internal/golden"
)

// The welcome block names the model and lists the directory's other
// sessions; at a narrow width it keeps to one column.
func TestWelcomeGolden(t *testing.T) {
	r := newRig(t, answer("hi"))
	r.typeAndSend("an earlier session")
	r.idle()
	r.update(r.m.cmdNew("")())
	r.idle()
	for _, w := range []int{80, 40} {
		got := ansi.Strip(r.m.welcome(w))
		got = regexp.MustCompile(`\((just now|\d+ min ago)\)`).ReplaceAllStringFunc(got, func(s string) string { return "(" + strings.Repeat("~", len(s)-2) + ")" })
		golden.Check(t, filepath.Join("testdata", "welcome", "welcome-"+itoa(w)+".txt"), got+"\n")
	}
}
