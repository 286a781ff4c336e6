package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/modes/printmode"
	"github.com/gopi-agent/gopi/core/modes/tui"
	"github.com/gopi-agent/gopi/core/prompt"
)

// runInteractive runs the interactive mode (gopi on a terminal): the
// session is built as for -p, the messages on the command line are sent
// first.
func runInteractive(ctx context.Context, env *cliEnv, cfg *config.Config, f *agentFlags, prompts []printmode.Prompt) int {
	gitProbe := prompt.StartGitStatus(ctx, cfg.Cwd, agentsession.GitStatusTimeout)
	s, ok := f.openSession(ctx, env, cfg, func(o *agentsession.Options) {
		o.GitStatus = gitProbe
		o.Permissions = tuiPermissions(cfg)
	})
	if !ok {
		return exitError
	}
	var msgs []string
	for _, p := range prompts {
		msgs = append(msgs, p.Text)
	}
	var cmds []tui.ExtCommand
	for _, c := range env.extCommands {
		if tui.BuiltinCommand(c.Name) {
			fmt.Fprintf(env.stderr, "gopi: extension %s: /%s is a built-in command; the extension's is skipped\n", c.Extension, c.Name)
			continue
		}
		cmds = append(cmds, tui.ExtCommand{Name: c.Name, Description: c.Description, Run: c.Run})
	}
	var keys []tui.ExtShortcut
	for _, sc := range env.extShortcuts {
		keys = append(keys, tui.ExtShortcut{Key: sc.Key, Description: sc.Description, Run: sc.Run})
	}
	renderers := map[string]func(context.Context, *message.Custom, bool, int) (string, error){}
	for typ, rd := range env.extRenderers {
		renderers[typ] = rd.Render
	}
	toolDraw := map[string]tui.ToolRenderer{}
	for name, tr := range env.extToolRenderers {
		var d tui.ToolRenderer
		if tr.HasCall() {
			d.Call = tr.RenderCall
		}
		if tr.HasResult() {
			d.Result = tr.RenderResult
		}
		toolDraw[name] = d
	}
	err := tui.Run(ctx, s, tui.Options{Shortcuts: keys, Renderers: renderers, ToolRenderers: toolDraw, Input: env.stdin, Output: env.stdout, Environ: env.environ, Cwd: cfg.Cwd, Home: cfg.Home, ScanCache: s.Tools().Env().Caches.Scanner(),
		HistoryFile: filepath.Join(cfg.AgentDir, "prompt-history.jsonl"),
		Messages:    msgs, NoColor: cfg.Env.Get("NO_COLOR") != "", Commands: cmds, Warnings: env.warnings})
	status := 0
	if err != nil {
		fmt.Fprintf(env.stderr, "gopi: %v\n", err)
		status = exitError
	}
	if err := s.Close(); err != nil {
		fmt.Fprintf(env.stderr, "gopi: the session could not be saved: %v\n", err)
		status = printmode.ExitFailed
	}
	return status
}
