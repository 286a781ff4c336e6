package ask

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// scriptedUI answers Select with the given choices in order; "" means the
// dialog timed out.
type scriptedUI struct {
	choices []string
	editor  string
	asked   [][]string
}

func (u *scriptedUI) Select(_ context.Context, _ string, options []string, _ time.Duration) (string, bool) {
	u.asked = append(u.asked, options)
	if len(u.choices) == 0 {
		return "", false
	}
	c := u.choices[0]
	u.choices = u.choices[1:]
	return c, c != ""
}
func (u *scriptedUI) Confirm(context.Context, string, string, time.Duration) bool { return false }
func (u *scriptedUI) Input(context.Context, string, string, time.Duration) (string, bool) {
	return "", false
}
func (u *scriptedUI) Editor(context.Context, string, string, time.Duration) (string, bool) {
	return u.editor, u.editor != ""
}
func (u *scriptedUI) Notify(string, string)      {}
func (u *scriptedUI) SetStatus(string, string)   {}
func (u *scriptedUI) SetWidget(string, []string) {}
func (u *scriptedUI) SetTitle(string)            {}
func (u *scriptedUI) SetEditorText(string)       {}

func run(t *testing.T, ui tool.UI, timeout int, args string) *tool.Result {
	t.Helper()
	env := tool.NewEnv(t.TempDir())
	env.UI = ui
	env.Settings.AskTimeout = timeout
	res, err := tool.Run(context.Background(), New(env), json.RawMessage(args), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

const oneQuestion = `{"questions":[{"id":"db","question":"Which database?","options":[{"label":"Postgres"},{"label":"SQLite"}],"recommended":1}]}`

func TestAsk(t *testing.T) {
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
	// Cancelled without a timeout configured.
	if res := run(t, &scriptedUI{choices: []string{""}}, 0, oneQuestion); !res.IsError || res.FirstText() != errCancelled {
		t.Fatalf("cancel: %q", res.FirstText())
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
