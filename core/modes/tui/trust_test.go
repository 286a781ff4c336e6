package tui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func trustQuestion() TrustQuestion {
	return TrustQuestion{
		Path:        "/src/cloned",
		Items:       []string{`MCP server "evil" runs sh -c "touch marker" (.mcp.json)`, "setting secrets.enabled: false (yours: true) (.gopi/config.yml)"},
		AnswersFile: "/home/me/.gopi/agent/trusted-projects.json",
	}
}

// TestTrustQuestionKeys: the question lists what the project asks for;
// y and n answer at once, the arrows move the cursor and Enter takes the
// choice under it, Esc is "not now" and Ctrl+C quits; each answer ends the
// program.
func TestTrustQuestionKeys(t *testing.T) {
	t.Parallel()
	m := newTrustModel(trustQuestion(), true)
	view := m.View().Content
	for _, want := range []string{"/src/cloned", `MCP server "evil" runs sh -c "touch marker"`, "secrets.enabled: false", "Yes, trust this project", "No, do not trust it", "Not now", "trusted-projects.json"} {
		if !strings.Contains(view, want) {
			t.Errorf("the question lacks %q:\n%s", want, view)
		}
	}
	for _, tc := range []struct {
		keys []tea.KeyPressMsg
		want TrustAnswer
	}{
		{[]tea.KeyPressMsg{{Code: 'y', Text: "y"}}, TrustYes},
		{[]tea.KeyPressMsg{{Code: 'n', Text: "n"}}, TrustNo},
		{[]tea.KeyPressMsg{{Code: tea.KeyEscape}}, TrustNotNow},
		{[]tea.KeyPressMsg{{Code: 'c', Mod: tea.ModCtrl}}, TrustQuit},
		{[]tea.KeyPressMsg{{Code: tea.KeyEnter}}, TrustNotNow}, // the cursor starts on the choice that commits to nothing
		{[]tea.KeyPressMsg{{Code: tea.KeyDown}, {Code: tea.KeyEnter}}, TrustYes},
		{[]tea.KeyPressMsg{{Code: tea.KeyUp}, {Code: tea.KeyUp}, {Code: tea.KeyEnter}}, TrustYes},
		{[]tea.KeyPressMsg{{Code: tea.KeyUp}, {Code: tea.KeyEnter}}, TrustNo},
	} {
		m := newTrustModel(trustQuestion(), true)
		var cmd tea.Cmd
		for _, k := range tc.keys {
			_, cmd = m.Update(k)
		}
		if !m.done || m.answer != tc.want {
			t.Errorf("keys %v: done=%v answer=%v, want %v", tc.keys, m.done, m.answer, tc.want)
			continue
		}
		if cmd == nil {
			t.Errorf("keys %v: the program does not end", tc.keys)
		} else if _, quit := cmd().(tea.QuitMsg); !quit {
			t.Errorf("keys %v: the answer does not end the program", tc.keys)
		}
	}
	// Other keys answer nothing.
	m = newTrustModel(trustQuestion(), true)
	m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	if m.done {
		t.Error("an unrelated key answered the question")
	}
}

// TestTrustQuestionManyItems: a long list is cut with a count of the rest.
func TestTrustQuestionManyItems(t *testing.T) {
	t.Parallel()
	q := trustQuestion()
	q.Items = nil
	for range 20 {
		q.Items = append(q.Items, "extension x.ts")
	}
	q.Changed = true
	view := newTrustModel(q, true).View().Content
	if !strings.Contains(view, "… and 8 more") || !strings.Contains(view, "changed since your last answer") {
		t.Errorf("view:\n%s", view)
	}
}

// TestAskTrustProgram runs the question as a program on a fake terminal:
// the key typed is the answer.
func TestAskTrustProgram(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	a, err := AskTrust(context.Background(), trustQuestion(), TrustOptions{Input: strings.NewReader("y"), Output: &out, Environ: []string{"TERM=dumb"}, NoColor: true})
	if err != nil || a != TrustYes {
		t.Fatalf("answer %v, err %v; output %q", a, err, out.String())
	}
	// Nothing typed and the context ends (Ctrl+C at the signal level):
	// quit.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pr, pw := io.Pipe()
	defer pw.Close()
	if a, _ := AskTrust(ctx, trustQuestion(), TrustOptions{Input: pr, Output: &out, NoColor: true}); a != TrustQuit {
		t.Errorf("a cancelled question answered %v", a)
	}
}
