package agentsession

import (
	"context"
	"time"

	"github.com/gopi-agent/gopi/core/prompt"
	"github.com/gopi-agent/gopi/core/tool"
)

// gitStatusTimeout bounds the `git status` the system prompt reports.
const gitStatusTimeout = 300 * time.Millisecond

// systemPrompt builds the system prompt for the offered tools.
func (s *Session) systemPrompt(tools []tool.Tool) (string, error) {
	var names []string
	for _, t := range tools {
		if h, ok := t.(interface{ Hidden() bool }); ok && h.Hidden() {
			continue
		}
		names = append(names, t.Definition().Name)
	}
	p, err := prompt.Build(context.Background(), prompt.Options{
		Cwd:                s.opts.Cwd,
		Home:               s.cfg.Home,
		Shell:              s.cfg.Env.Get("SHELL"),
		Tools:              names,
		EditMode:           s.toolEnv.Settings.EditMode,
		SystemPrompt:       s.opts.SystemPrompt,
		AppendSystemPrompt: s.opts.AppendSystemPrompt,
		AgentDir:           s.cfg.AgentDir,
		GitStatusTimeout:   gitStatusTimeout,
	})
	if err != nil {
		return "", err
	}
	s.promptInfo = p
	return p.Text, nil
}
