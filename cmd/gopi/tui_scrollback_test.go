package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// The scrollback holds every line of the conversation once, in order,
// and nothing else (no frame left behind), whatever is taller than the
// screen: a pasted 31-line message, a streamed 400-word paragraph, a
// 600-word answer streamed with a steering message queued and the window
// resized in the middle, and an answer cut short by quitting (what came of
// it stays). tmux keeps the whole history; its capture is read back line
// by line at three sizes.
func TestTUIScrollbackKeepsEveryLineOnce(t *testing.T) {
	sizes := [][2]int{{100, 15}, {80, 24}, {60, 40}}
	for i, size := range sizes {
		next := sizes[(i+1)%len(sizes)]
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			scrollbackRun(t, size, next)
		})
	}
}

// words is n words "<p>0 <p>1 …", each its own token in the scrollback.
func words(p string, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("%s%d", p, i)
	}
	return strings.Join(w, " ")
}

// scrollbackRun plays the conversation at size, resizing to next while
// the 600-word answer streams, and checks the scrollback.
func scrollbackRun(t *testing.T, size, next [2]int) {
	stream := func(s string, delay time.Duration) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{text(s)}, ChunkSize: 8, ChunkDelay: delay}
	}
	// The 600-word answer waits until the steering message is queued; the
	// last answer stops after 150 deltas (1,200 characters) and hangs
	// there until gopi quits.
	hold := make(chan struct{})
	steered := stream(words("x", 600), 20*time.Millisecond)
	steered.Hold = hold
	cut := stream(words("z", 2000), 5*time.Millisecond)
	cut.StallAfterDeltas = 150
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{text("pasted ok")}},
		stream(words("w", 400), 5*time.Millisecond),
		steered,
		mockllm.Turn{Blocks: []mockllm.Block{text("steered ok")}},
		cut,
	)
	// The welcome block is not part of the transcript compared here.
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("startup:\n  quiet: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, size[0], size[1], r.Project, r.Environ, "--no-title", "--model", "mock/mock-model")
	x.waitIn("the screen", x.screen, "Message gopi")
	idle := func() { x.waitGone("Working…") }

	var pasted []string
	for i := 1; i <= 31; i++ {
		pasted = append(pasted, fmt.Sprintf("pasted line %d", i))
	}
	x.tmux("set-buffer", strings.Join(pasted, "\n"))
	x.tmux("paste-buffer", "-p", "-t", "main")
	x.waitIn("the screen", x.screen, "[paste #1")
	x.keys("Enter")
	x.waitFor("pasted ok")
	idle()

	x.typ("go")
	x.keys("Enter")
	x.waitFor("w399")
	idle()

	x.typ("go2")
	x.keys("Enter")
	x.waitIn("the screen", x.screen, "Working…")
	x.typ("steer me")
	x.keys("Enter")
	x.waitIn("the screen", x.screen, "Steering: delivered")
	close(hold)
	x.waitToken("x20")
	x.tmux("resize-window", "-t", "main", "-x", fmt.Sprint(next[0]), "-y", fmt.Sprint(next[1]))
	x.waitFor("steered ok")
	idle()

	x.typ("long")
	x.keys("Enter")
	shown := strings.Fields(words("z", 2000)[:150*8])
	x.waitToken(shown[len(shown)-1]) // "z261": the 150 deltas end with "z261 "
	x.keys("C-d")
	x.waitFor("EXITED 0")

	got := readScrollback(t, x.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "main"))
	// The last line is the hint printed on exit; the transcript is above it.
	if n := len(got); n == 0 || !resumeHint.MatchString(got[n-1]) {
		t.Fatalf("the scrollback does not end with the resume hint:\n%s", strings.Join(got, "\n"))
	} else {
		got = got[:n-1]
	}
	want := []string{}
	for _, p := range pasted {
		want = append(want, "user: "+p)
	}
	want = append(want, "text: pasted ok", "user: go", "words: "+words("w", 400), "user: go2", "words: "+words("x", 600),
		"user: steer me", "text: steered ok", "user: long", "words: "+strings.Join(shown, " "))
	if !slices.Equal(got, want) {
		t.Fatalf("the scrollback, block by block:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// waitToken waits until the screen shows tok as a word of its own.
func (x *tmuxTerm) waitToken(tok string) {
	x.t.Helper()
	x.waitIn("the screen", func() string {
		if slices.Contains(strings.Fields(x.screen()), tok) {
			return tok
		}
		return ""
	}, tok)
}

var wordToken = regexp.MustCompile(`^[wxz][0-9]+$`)

// resumeHint is the block of the line gopi prints after it ends.
var resumeHint = regexp.MustCompile(`^text: Resume this session with gopi --resume \S+$`)

// readScrollback reads a capture (wrapped lines joined) into blocks: a
// user line ("user: …"), a run of answer words ("words: …", however they
// were wrapped), another line of text ("text: …"); blank lines part
// nothing. It ends at the shell's "EXITED" line.
func readScrollback(t *testing.T, capture string) []string {
	t.Helper()
	var out, run []string
	flush := func() {
		if len(run) > 0 {
			out = append(out, "words: "+strings.Join(run, " "))
			run = nil
		}
	}
	for _, line := range strings.Split(capture, "\n") {
		line = strings.TrimRight(line, " ")
		if strings.HasPrefix(line, "EXITED ") {
			break
		}
		fields := strings.Fields(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "▌ "):
			flush()
			out = append(out, "user: "+strings.TrimPrefix(line, "▌ "))
		case !slices.ContainsFunc(fields, func(f string) bool { return !wordToken.MatchString(f) }):
			run = append(run, fields...)
		default:
			flush()
			out = append(out, "text: "+line)
		}
	}
	flush()
	return out
}

// At narrow widths the scrollback holds an answer's text with its blank
// lines as the text has them, no more: rows exactly as wide as the
// terminal, CJK reaching its last column, and tab-separated columns (a tab
// counts no columns but moves the terminal to its next tab stop; at 20
// and 24 columns the screen counted such a row as one while the terminal
// wrapped it, and the next print left an extra blank line, issue 39's
// QNL finding). The answer's characters come back in order, and its
// blank lines are exactly its paragraph breaks.
func TestTUIScrollbackNarrowKeepsBlankLines(t *testing.T) {
	for _, width := range []int{20, 24} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			t.Parallel()
			narrowRun(t, width)
		})
	}
}

// narrowRun streams the narrow answer at width columns and compares the
// scrollback with it.
func narrowRun(t *testing.T, width int) {
	tabs := "Tabs:\tcol1\tcol2\tcol3\nTabs:\tcol1\tcol2\tcol3"
	paragraphs := []string{
		"Here is the log:\nline one: started\nline two: loaded 3 files",
		"Files:\nsrc/a.go\nREADME.md",
		tabs,
		strings.Repeat("a", width-1) + "\n" + strings.Repeat("b", width) + "\n" + strings.Repeat("c", width+1),
		"CJK: 你好世界，这是一个测试。日本語のテキスト。한국어 텍스트\n" + strings.Repeat("字", width/2) + "\nx" + strings.Repeat("字", width/2),
		tabs,
		"END_NARROW",
	}
	answer := strings.Join(paragraphs, "\n\n")
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text(answer)}, ChunkSize: 8, ChunkDelay: 5 * time.Millisecond})
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("startup:\n  quiet: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, width, 30, r.Project, r.Environ, "--no-title", "--model", "mock/mock-model")
	x.waitIn("the screen", x.screen, "Message")
	x.typ("go")
	x.keys("Enter")
	x.waitFor("END_NARROW")
	x.waitGone("Working…")

	lines := strings.Split(x.scrollback(), "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "Here is the log") })
	end := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "END_NARROW") })
	if start < 0 || end < start {
		t.Fatalf("the answer is not in the scrollback:\n%s", strings.Join(lines, "\n"))
	}
	shown := lines[start : end+1]
	blanks := 0
	for _, l := range shown {
		if strings.TrimSpace(l) == "" {
			blanks++
		}
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if got, want := squeeze(strings.Join(shown, "\n")), squeeze(answer); got != want {
		t.Errorf("the answer's characters in the scrollback:\n%s\nwant:\n%s", got, want)
	}
	if blanks != len(paragraphs)-1 {
		t.Errorf("the answer takes %d blank lines in the scrollback, its text %d:\n%s", blanks, len(paragraphs)-1, strings.Join(shown, "\n"))
	}
}
