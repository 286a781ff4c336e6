package launch

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/modes/printmode"
	"github.com/gopi-agent/gopi/core/modes/rpc"
	"github.com/gopi-agent/gopi/core/modes/tui"
	"github.com/gopi-agent/gopi/core/prompthistory"
)

// ExitUsage is the exit status of a mode that could not start for a
// problem of the user's (as bad flags are).
const ExitUsage = 2

// RunPrint runs print or JSON mode on the started session (the prompts
// in order, the answers printed), closes the session and returns the exit
// status: a session that could not be saved fails an otherwise good run.
func (st *Started) RunPrint(ctx context.Context, r *Request, prompts []printmode.Prompt, o printmode.Options) int {
	status := printmode.Run(ctx, st.Session, prompts, o)
	if err := st.Session.Close(); err != nil && status == printmode.ExitOK {
		r.report("the session could not be saved: %v", err)
		status = printmode.ExitFailed
	}
	return status
}

// RunRPC serves RPC mode on the started session: commands on in, frames
// on out; the extensions' commands are the host's too.
func (st *Started) RunRPC(ctx context.Context, cfg *config.Config, in io.Reader, out io.Writer) int {
	var cmds []rpc.Command
	for _, c := range st.Extras.Commands {
		cmds = append(cmds, rpc.Command{Name: c.Name, Run: c.Run})
	}
	opts := rpc.Options{In: in, Out: out, EmitTitle: cfg.Env.Get("PI_RPC_EMIT_TITLE") == "1", Commands: cmds, Warnings: st.Warnings}
	if st.Logins != nil {
		opts.Logins = st.Logins
	}
	return rpc.Run(ctx, st.Session, opts)
}

// Terminal is what the interactive mode draws on.
type Terminal struct {
	In      io.Reader // the terminal's input
	Out     io.Writer // the terminal
	Environ []string  // the environment that describes it (TERM, COLORTERM, …)
}

// RunInteractive runs the interactive mode on the started session,
// sending the prompts' texts first, then closes the session; it returns
// the exit status.
func (st *Started) RunInteractive(ctx context.Context, r *Request, cfg *config.Config, term Terminal, prompts []printmode.Prompt) int {
	var msgs []string
	for _, p := range prompts {
		msgs = append(msgs, p.Text)
	}
	var cmds []tui.ExtCommand
	for _, c := range st.Extras.Commands {
		if tui.BuiltinCommand(c.Name) {
			r.report("extension %s: /%s is a built-in command; the extension's is skipped", c.Extension, c.Name)
			continue
		}
		cmds = append(cmds, tui.ExtCommand{Name: c.Name, Description: c.Description, Run: c.Run})
	}
	var keys []tui.ExtShortcut
	for _, sc := range st.Extras.Shortcuts {
		keys = append(keys, tui.ExtShortcut{Key: sc.Key, Description: sc.Description, Run: sc.Run})
	}
	renderers := map[string]func(context.Context, *message.Custom, bool, int) (string, error){}
	for typ, rd := range st.Extras.Renderers {
		renderers[typ] = rd.Render
	}
	toolDraw := map[string]tui.ToolRenderer{}
	for name, tr := range st.Extras.ToolRenderers {
		var d tui.ToolRenderer
		if tr.HasCall() {
			d.Call = tr.RenderCall
		}
		if tr.HasResult() {
			d.Result = tr.RenderResult
		}
		toolDraw[name] = d
	}
	s := st.Session
	opts := tui.Options{Shortcuts: keys, Renderers: renderers, ToolRenderers: toolDraw, Input: term.In, Output: term.Out, Environ: term.Environ, Cwd: cfg.Cwd, Home: cfg.Home, ScanCache: s.Tools().Env().Caches.Scanner(),
		Messages: msgs, NoColor: cfg.Env.Get("NO_COLOR") != "", Commands: cmds, Warnings: st.Warnings, Extensions: st.Extras.Loaded,
		Editor: cfg.Editor(), Welcome: !cfg.Settings.Bool("startup.quiet"), Version: r.Version}
	if st.Logins != nil {
		opts.Logins = st.Logins
	}
	// Prompts are kept where omp keeps them (history.db); the file of
	// earlier gopi versions is taken over once.
	hist, herr := prompthistory.Open(ctx, filepath.Join(cfg.AgentDir, "history.db"), filepath.Join(cfg.AgentDir, "prompt-history.jsonl"))
	if herr != nil {
		opts.Warnings = append(opts.Warnings, "Prompt history is off for this run: "+herr.Error())
	} else {
		opts.History = hist
		defer hist.Close()
	}
	err := tui.Run(ctx, s, opts)
	status := 0
	if err != nil {
		r.report("%v", err)
		status = ExitUsage
	}
	id, file := s.Stats().SessionID, s.SessionFile()
	if err := s.Close(); err != nil {
		r.report("the session could not be saved: %v", err)
		status = printmode.ExitFailed
	}
	if _, err := os.Stat(file); file != "" && err == nil && status == 0 {
		fmt.Fprint(term.Out, tui.ResumeHint(id, !opts.NoColor))
	}
	return status
}
