package agentsession

import (
	"context"
	"time"

	"github.com/gopi-agent/gopi/core/prompt"
	"github.com/gopi-agent/gopi/core/tool"
)

// GitStatusTimeout bounds the `git status` whose count of changed paths
// the system prompt reports; a slower one is left out of the prompt.
const GitStatusTimeout = 300 * time.Millisecond

// startGitStatus returns the `git status` the system prompt will report:
// Options.GitStatus when the caller started one, else one started now, so
// that it runs while the session is being set up (nil outside a
// repository, or when NULL_PROMPT leaves the prompt out).
func startGitStatus(ctx context.Context, opts Options, cwd string) *prompt.StatusProbe {
	if opts.Config != nil && opts.Config.NullPrompt() {
		return nil
	}
	if opts.GitStatus != nil {
		return opts.GitStatus
	}
	return prompt.StartGitStatus(ctx, cwd, GitStatusTimeout)
}

// toolsPrompt builds the system prompt for the offered tools when they
// change (the tool set's host).
func (s *Session) toolsPrompt(tools []tool.Tool) (string, error) { return s.systemPrompt(tools, nil) }

// systemPrompt builds the system prompt for the offered tools, with the
// result of the git status probe (nil: Build runs one if cwd is in a
// repository). With NULL_PROMPT=true it is empty, and the providers send
// none.
func (s *Session) systemPrompt(tools []tool.Tool, probe *prompt.StatusProbe) (string, error) {
	if s.cfg.NullPrompt() {
		s.promptInfo = &prompt.Prompt{}
		return "", nil
	}
	var names []string
	for _, t := range tools {
		if h, ok := t.(interface{ Hidden() bool }); ok && h.Hidden() {
			continue
		}
		names = append(names, t.Definition().Name)
	}
	skills, always, book := s.res.promptResources()
	p, err := prompt.Build(context.Background(), prompt.Options{
		Skills:                skills,
		AlwaysRules:           always,
		Rulebook:              book,
		Cwd:                   s.opts.Cwd,
		Home:                  s.cfg.Home,
		Shell:                 s.cfg.Env.Get("SHELL"),
		Tools:                 names,
		EditMode:              s.toolEnv.Settings.EditMode,
		SystemPrompt:          s.opts.SystemPrompt,
		AppendSystemPrompt:    s.opts.AppendSystemPrompt,
		AgentDir:              s.cfg.AgentDir,
		ContextFilesOff:       offIn(s.cfg.Settings).contextFiles(),
		ExtensionContextFiles: s.geminiContext(),
		GitStatusTimeout:      GitStatusTimeout,
		GitStatus:             probe,
	})
	if err != nil {
		return "", err
	}
	s.promptInfo = p
	return p.Text, nil
}
