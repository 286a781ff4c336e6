package prompt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/registry"
	"github.com/gopi-agent/gopi/core/tools/task"
	"github.com/gopi-agent/gopi/tokens"
)

// tokenBudget is the most o200k_base tokens the fixed part of a request —
// the system prompt without context files plus the built-in tool
// definitions — may take. (omp 14.9.9 sends about 20,000.)
const tokenBudget = 10_000

// editModes are the edit tool's input modes gopi implements; each gives
// the tools (and the prompt) different descriptions.
var editModes = []tool.EditMode{tool.EditHashline, tool.EditReplace, tool.EditPatch, tool.EditApplyPatch, tool.EditVim}

// hiddenTool is implemented by tools left out of the model's tool list
// unless a forced choice names them (as core/agent decides).
type hiddenTool interface{ Hidden() bool }

// toolTokens counts one tool definition as a request carries it: name,
// description and the JSON schema of its parameters (compact, as the
// provider decodes it).
func toolTokens(t testing.TB, enc *tokens.Encoding, def tool.Definition) int {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(def.Parameters); err != nil {
		t.Fatal(err)
	}
	return enc.Count(def.Name) + enc.Count(def.Description) + enc.Count(string(bytes.TrimSpace(buf.Bytes())))
}

// budgetRow is the measurement for one edit mode.
type budgetRow struct {
	mode         tool.EditMode
	prompt       int            // system prompt, no context files
	withContext  int            // system prompt with the fixture's context files
	tools        int            // the tools offered on every request
	hidden       int            // tools offered only when forced (resolve)
	perTool      map[string]int // each built-in tool
	order        []string       // tool names in offer order
	visibleNames []string
}

func measureBudget(t testing.TB, root string) []budgetRow {
	enc, err := tokens.Get(tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.LoadOptions{Cwd: filepath.Join(root, "repo"), Home: t.TempDir(), Environ: []string{}, NoFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	var rows []budgetRow
	for _, mode := range editModes {
		env := tool.NewEnv(filepath.Join(root, "repo"))
		env.Settings = tool.DefaultSettings()
		env.Settings.EditMode = mode
		svc := registry.NewServices(env)
		svc.Subagents = budgetHost{cfg}
		row := budgetRow{mode: mode, perTool: map[string]int{}}
		for _, tl := range registry.All(env, svc) {
			def := tl.Definition()
			n := toolTokens(t, enc, def)
			row.perTool[def.Name] = n
			row.order = append(row.order, def.Name)
			if h, ok := tl.(hiddenTool); ok && h.Hidden() {
				row.hidden += n
				continue
			}
			row.tools += n
			row.visibleNames = append(row.visibleNames, def.Name)
		}
		opts := fixtureOptions(root)
		opts.Tools, opts.EditMode = row.visibleNames, mode
		full, err := Build(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.ContextFiles = []ContextFile{}
		bare, err := Build(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		row.prompt, row.withContext = enc.Count(bare.Text), enc.Count(full.Text)
		rows = append(rows, row)
	}
	return rows
}

// TestTokenBudget fails when the system prompt plus the built-in tool
// definitions exceed tokenBudget o200k tokens in any edit mode, also
// counting the hidden resolve tool a forced request adds. With -v it
// prints the numbers (bench/prompt.sh reads the "budget:" and "tool:"
// lines).
func TestTokenBudget(t *testing.T) {
	root := extract(t, "testdata/fixture.txtar")
	for _, r := range measureBudget(t, root) {
		total := r.prompt + r.tools + r.hidden
		t.Logf("budget: mode=%s prompt=%d prompt_with_context=%d tools=%d hidden=%d total=%d", r.mode, r.prompt, r.withContext, r.tools, r.hidden, total)
		for _, name := range r.order {
			t.Logf("tool: mode=%s name=%s tokens=%d", r.mode, name, r.perTool[name])
		}
		if total > tokenBudget {
			t.Errorf("edit mode %s: system prompt %d + tools %d + hidden tools %d = %d o200k tokens, over the budget of %d",
				r.mode, r.prompt, r.tools, r.hidden, total, tokenBudget)
		}
	}
}

// budgetHost lets the registry offer the task tool (with the bundled
// agents) as a session does.
type budgetHost struct{ cfg *config.Config }

func (h budgetHost) Config() *config.Config { return h.cfg }
func (budgetHost) SessionFile() string      { return "" }
func (budgetHost) Position() task.Position  { return task.TopLevel }
func (budgetHost) ToolNames() []string      { return registry.Names() }
func (budgetHost) StartChild(context.Context, task.ChildSpec) (task.Child, error) {
	return nil, errors.New("no children in a budget test")
}
