package tui

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/golden"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// plainRenderer draws without colours at width.
func plainRenderer(width int) *renderer {
	return &renderer{th: newTheme(true, true), width: width}
}

// sgr matches one SGR escape sequence.
var sgr = regexp.MustCompile("\x1b\\[([0-9;]*)m")

// markInverse writes inverted text as ⟦text⟧ and drops every other
// escape sequence, so a golden file shows what is highlighted.
func markInverse(s string) string {
	inverse := false
	return sgr.ReplaceAllStringFunc(s, func(seq string) string {
		params := strings.Split(sgr.FindStringSubmatch(seq)[1], ";")
		on := false
		for _, p := range params {
			on = on || p == "7"
		}
		switch {
		case on && !inverse:
			inverse = true
			return "⟦"
		case !on && inverse:
			inverse = false
			return "⟧"
		}
		return ""
	})
}

// A shell call's card shows the whole command, wrapped to the width,
// however long it is (it was cut at 50 characters).
func TestCardShowsWholeCommandWrapped(t *testing.T) {
	t.Parallel()
	command := "find . -name '*.go' -not -path './vendor/*' -exec grep -l 'func main' {} + | xargs -n1 dirname | sort -u\necho done"
	call := &ai.ToolCall{Name: "bash", Arguments: map[string]any{"command": command}}
	var got strings.Builder
	for _, width := range []int{60, 100} {
		card := plainRenderer(width).card(call, []ai.Content{&ai.TextContent{Text: "./cmd/gopi\ndone"}}, nil, false)
		fmt.Fprintf(&got, "-- width %d --\n%s\n", width, markInverse(card))
		for _, l := range strings.Split(markInverse(card), "\n") {
			if len([]rune(l)) > width {
				t.Errorf("a line wider than %d: %q", width, l)
			}
		}
	}
	ssh := &ai.ToolCall{Name: "ssh", Arguments: map[string]any{"host": "web", "command": strings.Repeat("journalctl -u nginx --since today | tail ", 2)}}
	fmt.Fprintf(&got, "-- ssh, width 60 --\n%s\n", markInverse(plainRenderer(60).card(ssh, nil, nil, false)))
	golden.Check(t, filepath.Join("testdata", "cards", "whole_command.golden"), got.String())
}

// An edit card marks the words that changed within a changed line (a
// lone removed line before a lone added one), as omp's does; blocks of
// several lines are coloured whole.
func TestEditCardWordDiff(t *testing.T) {
	t.Parallel()
	d := strings.Join([]string{
		"--- a/greet.go",
		"+++ b/greet.go",
		"@@ -1,9 +1,9 @@",
		" package greet",
		"-func Hello() string { return \"hi\" }",
		"+func Hello() string { return \"hi there\" }",
		" ",
		"-\tname := strings.TrimSpace(input)",
		"+\tname := strings.ToUpper(strings.TrimSpace(input))",
		" // two lines changed together: no word marks",
		"-const a = 1",
		"-const b = 2",
		"+const a = 10",
		"+const b = 20",
		"-removed only",
		"",
	}, "\n")
	details, _ := json.Marshal(map[string]any{"path": "greet.go", "diff": d})
	call := &ai.ToolCall{Name: "edit", Arguments: map[string]any{"path": "greet.go"}}
	card := plainRenderer(80).card(call, []ai.Content{&ai.TextContent{Text: "Updated greet.go"}}, json.RawMessage(details), false)
	golden.Check(t, filepath.Join("testdata", "cards", "word_diff.golden"), markInverse(card)+"\n")
}

func TestWordDiff(t *testing.T) {
	t.Parallel()
	show := func(spans []span) string {
		var b strings.Builder
		for _, s := range spans {
			if s.changed {
				b.WriteString("[" + s.text + "]")
			} else {
				b.WriteString(s.text)
			}
		}
		return b.String()
	}
	for _, c := range []struct{ old, new, wantOld, wantNew string }{
		{`return "hi"`, `return "hi there"`, `return "hi"`, `return "hi [there]"`},
		{"a := f(x)", "a := g(x)", "a := [f](x)", "a := [g](x)"},
		{"one two three", "one 2 3 three", "one [two] three", "one [2 3] three"},
		{"\tx = 1", "\t\ty = 1", "\t[x] = 1", "\t\t[y] = 1"},
		{"same", "same", "same", "same"},
		{"", "new", "", "[new]"},
		{"日本語 text", "日本 text", "[日本語] text", "[日本] text"},
	} {
		o, n := wordDiff(c.old, c.new)
		if got := show(o); got != c.wantOld {
			t.Errorf("wordDiff(%q, %q) old side %q, want %q", c.old, c.new, got, c.wantOld)
		}
		if got := show(n); got != c.wantNew {
			t.Errorf("wordDiff(%q, %q) new side %q, want %q", c.old, c.new, got, c.wantNew)
		}
	}
}

// Ctrl+O, as omp's: every card, those printed already too, is shown in
// full — the transcript is drawn again from the session, replacing what
// was printed — and a second press cuts them again. Pressed while the
// agent works, new cards follow at once and the redraw waits for the end
// of the run.
func TestCtrlOExpandsEveryCard(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"seq 1 30"}`)}},
		answer("counted"),
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"sleep 0.5; seq 101 130"}`)}},
		answer("counted again"),
	)
	r.typeAndSend("count")
	r.idle()
	if !r.printedHas("… 20 earlier lines (ctrl+o to expand)") || r.printedHas("\n  5\n") {
		t.Fatalf("the card was not cut with the hint:\n%s", r.transcript())
	}
	redrawn := func() string {
		t.Helper()
		if !r.m.redrawAll || !r.m.replacePrinted {
			t.Fatalf("no redraw replacing the transcript:\n%s", r.view())
		}
		r.m.redrawAll, r.m.replacePrinted = false, false
		out := r.transcript()
		r.printed = nil
		return out
	}
	r.printed = nil
	r.key("ctrl+o")
	got := redrawn()
	if !strings.Contains(got, "\n  1\n  2\n") || strings.Contains(got, "ctrl+o to expand") || !strings.Contains(got, "counted") ||
		!strings.Contains(r.view(), "Tool output is shown in full") {
		t.Fatalf("Ctrl+O did not draw the card in full:\n%s\nview:\n%s", got, r.view())
	}
	r.key("ctrl+o")
	got = redrawn()
	if r.m.r.full || !strings.Contains(got, "… 20 earlier lines (ctrl+o to expand)") || strings.Contains(got, "\n  5\n") {
		t.Fatalf("a second Ctrl+O did not cut the cards again:\n%s", got)
	}

	r.typeAndSend("again")
	r.until("the second command", func() bool { return strings.Contains(r.view(), "seq 101 130") })
	r.key("ctrl+o")
	if r.m.redrawAll {
		t.Fatal("Ctrl+O redrew the transcript while the agent worked")
	}
	r.idle()
	got = redrawn()
	if !strings.Contains(got, "\n  1\n  2\n") || !strings.Contains(got, "\n  101\n  102\n") || !strings.Contains(got, "counted again") {
		t.Fatalf("the redraw after the run:\n%s", got)
	}
}

// A running card shows the first lines of a long command only; the
// finished card shows it whole.
func TestLiveCardCutsLongCommand(t *testing.T) {
	t.Parallel()
	var lines []string
	for i := range 20 {
		lines = append(lines, fmt.Sprintf("echo step %d", i))
	}
	call := &ai.ToolCall{Name: "bash", Arguments: map[string]any{"command": strings.Join(lines, "\n")}}
	r := plainRenderer(80)
	live := r.liveCard(call, "", nil, "⠋")
	if !strings.Contains(live, "echo step 5") || strings.Contains(live, "echo step 6") || !strings.Contains(live, "… 14 more lines") {
		t.Errorf("live card:\n%s", live)
	}
	if done := r.card(call, nil, nil, false); !strings.Contains(done, "echo step 19]") {
		t.Errorf("finished card:\n%s", done)
	}
}

// Ctrl+O's redraw replaces a scrollback that held the whole conversation:
// it draws every message, not only the newest ones a resumed session
// starts with.
func TestCtrlORedrawsEveryMessage(t *testing.T) {
	t.Parallel()
	n := historyShow/2 + 1
	var turns []mockllm.Turn
	for i := range n {
		turns = append(turns, answer("answer "+itoa(i)))
	}
	r := newRig(t, turns...)
	for i := range n {
		r.typeAndSend("question " + itoa(i))
		r.idle()
	}
	r.printed = nil
	r.key("ctrl+o")
	got := r.transcript()
	if !strings.Contains(got, "question 0\n") || !strings.Contains(got, "answer "+itoa(n-1)) || strings.Contains(got, "earlier messages") {
		t.Fatalf("the redraw left out messages:\n%s", got)
	}
}

// A tool output line wider than the card wraps onto more rows, as omp's
// boxes wrap it; nothing is cut with "…" (the collapsed card still keeps
// only its last lines).
func TestCardWrapsLongOutputLines(t *testing.T) {
	t.Parallel()
	long := "start " + strings.Repeat("0123456789", 12) + " the-end"
	call := &ai.ToolCall{Name: "bash", Arguments: map[string]any{"command": "cat long.txt"}}
	card := plainRenderer(50).card(call, []ai.Content{&ai.TextContent{Text: "short\n" + long}}, nil, false)
	plain := markInverse(card)
	if strings.Contains(plain, "…") {
		t.Fatalf("a line was cut:\n%s", plain)
	}
	joined := ""
	for _, l := range strings.Split(plain, "\n")[1:] {
		if w := len([]rune(l)); w > 50 {
			t.Errorf("a row wider than 50: %q", l)
		}
		joined += strings.TrimPrefix(l, "  ")
	}
	if !strings.Contains(joined, strings.ReplaceAll(long, " ", "")) && !strings.Contains(strings.ReplaceAll(joined, " ", ""), strings.ReplaceAll(long, " ", "")) {
		t.Fatalf("the line's text is not all there:\n%s", plain)
	}
}
