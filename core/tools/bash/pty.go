package bash

import (
	"context"
	"fmt"

	"github.com/gopi-agent/gopi/core/shell"
	"github.com/gopi-agent/gopi/core/tool"
)

// terminalTitle is the title of the terminal a PTY call opens.
const terminalTitle = "Console"

// runPTY runs the call in a pseudo-terminal, in a fresh shell. When the UI
// can show a terminal, the output is shown there and the user's typing
// goes to the command; dismissing the terminal ends the command.
func (t *Tool) runPTY(ctx context.Context, c call) (*tool.Result, error) {
	pool, err := t.shell.Pool()
	if err != nil {
		return nil, tool.Errorf("Cannot run commands: %v", err)
	}
	dir := c.dir
	if dir == "" {
		dir = pool.Dir()
	}
	req := shell.PTYRequest{Request: shell.Request{Command: c.command, Dir: dir, Env: c.env, Timeout: c.timeout()}}
	if tui, ok := t.env.UI.(tool.TerminalUI); ok {
		tctx, cancel := context.WithCancel(ctx)
		defer cancel()
		term, err := tui.OpenTerminal(tctx, terminalTitle)
		if err == nil {
			defer term.Close()
			req.Raw, req.Input = term, term.Input()
			req.Cols, req.Rows = term.Size()
		}
	}
	sink := tool.NewOutputSink(t.env.Artifacts, "bash")
	sink.LimitArtifact(t.env.Settings.Bash.MaxArtifactBytes)
	req.Output = sink
	res, err := pool.RunPTY(ctx, req)
	if err != nil {
		fmt.Fprintf(sink, "PTY error: %v\n", err)
		res = shell.Result{OneShot: true}
	}
	sum, _ := sink.Close()
	if res.Cancelled && ctx.Err() != nil {
		return nil, fmt.Errorf("bash: %w", tool.ErrAborted)
	}
	return finish(c.input, Outcome{Output: sum, Result: res})
}
