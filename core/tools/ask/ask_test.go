package ask

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// scriptedUI answers Select with the given choices in order: "" means
// the dialog timed out, dismiss that the user dismissed it. An empty
// editor text is a dismissed editor.
type scriptedUI struct {
	choices []string
	editor  string
	asked   [][]string
}

const dismiss = "\x00dismiss"

func (u *scriptedUI) Select(_ context.Context, _ string, options []string, _ time.Duration) (string, error) {
	u.asked = append(u.asked, options)
	if len(u.choices) == 0 {
		return "", tool.ErrDialogTimedOut
	}
	c := u.choices[0]
	u.choices = u.choices[1:]
	switch c {
	case "":
		return "", tool.ErrDialogTimedOut
	case dismiss:
		return "", tool.ErrDialogCancelled
	}
	return c, nil
}
func (u *scriptedUI) Confirm(context.Context, string, string, time.Duration) (bool, error) {
	return false, tool.ErrDialogCancelled
}
func (u *scriptedUI) Input(context.Context, string, string, time.Duration) (string, error) {
	return "", tool.ErrDialogCancelled
}
func (u *scriptedUI) Editor(context.Context, string, string, time.Duration) (string, error) {
	if u.editor == "" {
		return "", tool.ErrDialogCancelled
	}
	return u.editor, nil
}
func (u *scriptedUI) Notify(string, string)      {}
func (u *scriptedUI) SetStatus(string, string)   {}
func (u *scriptedUI) SetWidget(string, []string) {}
func (u *scriptedUI) SetTitle(string)            {}
func (u *scriptedUI) SetEditorText(string)       {}

func run(t *testing.T, ui tool.UI, timeout int, args string) *tool.Result {
	t.Helper()
	res, err := runErr(t, ui, timeout, args)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func runErr(t *testing.T, ui tool.UI, timeout int, args string) (*tool.Result, error) {
	t.Helper()
	env := tool.NewEnv(t.TempDir())
	env.UI = ui
	env.Settings.AskTimeout = timeout
	return tool.Run(context.Background(), New(env), json.RawMessage(args), nil)
}

// A dismissed question ends the run with the cancel text, whether or not
// a timeout is configured, and whatever was picked before; only a timeout
// takes the recommended option.
func TestAskDismissedIsNotATimeout(t *testing.T) {
	t.Parallel()
	multi := `{"questions":[{"id":"a","question":"Which?","options":[{"label":"x"},{"label":"y"}],"multi":true}]}`
	for _, tc := range []struct {
		name    string
		ui      *scriptedUI
		timeout int
		args    string
	}{
		{"with a timeout", &scriptedUI{choices: []string{dismiss}}, 30, oneQuestion},
		{"without a timeout", &scriptedUI{choices: []string{dismiss}}, 0, oneQuestion},
		{"after picking some", &scriptedUI{choices: []string{"x", dismiss}}, 30, multi},
		{"in the editor", &scriptedUI{choices: []string{otherOption}}, 30, oneQuestion},
	} {
		res, err := runErr(t, tc.ui, tc.timeout, tc.args)
		var stop *tool.AbortRunError
		if !errors.As(err, &stop) || !errors.Is(err, tool.ErrAborted) || !res.IsError || res.FirstText() != errCancelled {
			t.Errorf("%s: %q %v", tc.name, res.FirstText(), err)
		}
	}
	// A timeout after picking some keeps them.
	if res := run(t, &scriptedUI{choices: []string{"y", ""}}, 30, multi); res.FirstText() != "User selected: y" {
		t.Fatalf("multi timeout: %q", res.FirstText())
	}
}

const oneQuestion = `{"questions":[{"id":"db","question":"Which database?","options":[{"label":"Postgres"},{"label":"SQLite"}],"recommended":1}]}`

func TestAsk(t *testing.T) {
	t.Parallel()
	ui := &scriptedUI{choices: []string{"SQLite (Recommended)"}}
	if res := run(t, ui, 30, oneQuestion); res.IsError || res.FirstText() != "User selected: SQLite" {
		t.Fatalf("pick: %q", res.FirstText())
	}
	if got := ui.asked[0]; strings.Join(got, "|") != "Postgres|SQLite (Recommended)|Other (type your own)" {
		t.Fatalf("menu %v", got)
	}
	// Unanswered: the recommended option.
	if res := run(t, &scriptedUI{choices: []string{""}}, 30, oneQuestion); res.FirstText() != "User selected: SQLite" {
		t.Fatalf("timeout: %q", res.FirstText())
	}
	// Their own answer.
	if res := run(t, &scriptedUI{choices: []string{otherOption}, editor: "DuckDB"}, 30, oneQuestion); res.FirstText() != "User provided custom input: DuckDB" {
		t.Fatalf("other: %q", res.FirstText())
	}
	// Several answers.
	multi := `{"questions":[{"id":"a","question":"Which?","options":[{"label":"x"},{"label":"y"}],"multi":true},{"id":"b","question":"Sure?","options":[{"label":"yes"},{"label":"no"}]}]}`
	res := run(t, &scriptedUI{choices: []string{"y", "x", doneOption, "no"}}, 30, multi)
	if res.FirstText() != "User answers:\na: selected: y, x\nb: selected: no" {
		t.Fatalf("multi: %q", res.FirstText())
	}
	// No UI.
	if res := run(t, nil, 30, oneQuestion); !res.IsError || res.FirstText() != errNoUI {
		t.Fatalf("no ui: %q", res.FirstText())
	}
}
