package launch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/session"
)

// SessionOptions resolves the request into the options of the session
// runtime: the model, the tools and the stored session to continue (its
// store is open when the error is nil; the caller closes it if the
// session is not made); a failure is an *Error. Problems found in the stored session's lines are
// reported.
func SessionOptions(r *Request, cfg *config.Config, reg *models.Registry) (agentsession.Options, error) {
	opts := agentsession.Options{
		Config:             cfg,
		Models:             reg,
		NoSession:          r.NoSession,
		SessionDir:         r.SessionDir,
		APIKey:             r.APIKey,
		SystemPrompt:       r.SystemPrompt,
		AppendSystemPrompt: r.AppendSystemPrompt,
		NoTitle:            r.NoTitle,
		NoSkills:           r.NoSkills,
		NoRules:            r.NoRules,
		NoMCP:              r.NoMCP,
		NoGeminiExtensions: r.NoExtensions,
		SkillPatterns:      r.Skills,
		Thinking:           r.Thinking,
		MCPServers:         r.MCPServers,
		HTTPClient:         r.HTTPClient,
	}
	if r.Permissions != nil {
		opts.Permissions = *r.Permissions
	} else {
		opts.Permissions = PermissionsFor(r.Mode, cfg)
	}
	for _, pat := range r.CycleModels {
		m, err := reg.Find(pat)
		if err != nil {
			return opts, fail(StageModel, fmt.Errorf("--models %s: %w", pat, err))
		}
		opts.CycleModels = append(opts.CycleModels, m)
	}
	if m, level, err := pickModel(r, reg); err != nil {
		return opts, fail(StageModel, err)
	} else if m != nil {
		opts.Model = m
		if level != "" && opts.Thinking == "" {
			opts.Thinking = level
		}
	}
	switch {
	case r.NoTools:
		opts.ToolNames = []string{}
	case len(r.Tools) > 0:
		opts.ToolNames = r.Tools
	}
	store, err := openStore(r, cfg)
	if err != nil {
		return opts, fail(StageStore, err)
	}
	opts.Store = store
	if store != nil {
		for _, p := range store.Problems() {
			r.report("warning: %s %s (the line is kept in the file)", store.File(), p)
		}
	}
	return opts, nil
}

// openStore opens the stored session the request continues, resumes or
// forks; nil when it starts a new one.
func openStore(r *Request, cfg *config.Config) (*session.Manager, error) {
	loc := agentsession.Locations(cfg, r.SessionDir)
	sopts := agentsession.StoreOptions(cfg, cfg.Cwd, r.SessionDir)
	var store *session.Manager
	var err error
	switch {
	case r.Continue:
		store, err = session.ContinueRecent(loc, cfg.Cwd, sopts)
	case r.ResumeGiven:
		var path string
		if path, err = session.Resolve(loc, cfg.Cwd, r.Resume); err == nil {
			store, err = session.Open(path, sopts)
		}
		if err == nil && !IsPathArg(r.Resume) && otherProject(store.Header().Cwd, cfg.Cwd) {
			// As omp does without a terminal to ask on: an id found in
			// another project is not silently continued here.
			err = fmt.Errorf("session %q is in another project (%s): continue it there, or fork it into this directory with --fork %s", r.Resume, store.Header().Cwd, r.Resume)
			store.Close()
			store = nil
		}
	case r.Fork != "":
		var path string
		if path, err = session.Resolve(loc, cfg.Cwd, r.Fork); err == nil {
			if r.NoSession {
				err = errors.New("--fork writes a new session file: drop --no-session")
			} else {
				sopts.ParentSession = path
				store, err = session.ForkFile(path, "", sopts)
			}
		}
	}
	if errors.Is(err, session.ErrInvalidHeader) {
		err = fmt.Errorf("%w: give a session file that gopi or omp wrote, or run gopi --resume without an argument to pick one from a list", err)
	}
	return store, err
}

// IsPathArg reports whether a --resume or --fork argument names a file
// rather than an id prefix (the rule session.Resolve applies).
func IsPathArg(arg string) bool {
	return strings.ContainsRune(arg, filepath.Separator) || strings.HasSuffix(arg, ".jsonl")
}

// otherProject reports whether a session recorded for sessionCwd belongs
// to another directory than cwd (old sessions without a cwd do not; a
// path reached through a symbolic link is the same directory).
func otherProject(sessionCwd, cwd string) bool {
	if sessionCwd == "" || filepath.Clean(sessionCwd) == filepath.Clean(cwd) {
		return false
	}
	a, errA := filepath.EvalSymlinks(sessionCwd)
	b, errB := filepath.EvalSymlinks(cwd)
	return errA != nil || errB != nil || a != b
}

// pickModel resolves the requested model and provider; nil when the
// request names neither.
func pickModel(r *Request, reg *models.Registry) (*ai.Model, ai.ThinkingLevel, error) {
	query, level, _ := models.ParseModelArg(r.Model)
	switch {
	case query == "" && r.Provider == "":
		return nil, "", nil
	case query == "":
		p, ok := reg.Provider(r.Provider)
		if !ok {
			return nil, "", fmt.Errorf("unknown --provider %q ('gopi models' lists the providers)", r.Provider)
		}
		for _, m := range reg.Models() {
			if m.Provider == p.Name && reg.HasAuth(m) {
				return m, level, nil
			}
		}
		for _, m := range reg.Models() {
			if m.Provider == p.Name {
				return m, level, nil
			}
		}
		return nil, "", fmt.Errorf("provider %q has no models", r.Provider)
	case r.Provider != "" && !strings.Contains(query, "/"):
		query = r.Provider + "/" + query
		if m, err := reg.Find(query); err == nil {
			return m, level, nil
		}
		query = r.Model
	}
	m, err := reg.Find(query)
	if err != nil {
		return nil, "", fmt.Errorf("--model: %w", err)
	}
	return m, level, nil
}

// looksLikeMissingFile reports whether a --system-prompt value looks like a
// path (a leading /, ./ or ~/, or a .md or .txt name) but no such file
// exists: it would silently become the prompt text.
func looksLikeMissingFile(cfg *config.Config, v string) bool {
	if v == "" || strings.ContainsAny(v, "\n ") {
		return false
	}
	if !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "./") && !strings.HasPrefix(v, "~/") &&
		!strings.HasSuffix(v, ".md") && !strings.HasSuffix(v, ".txt") {
		return false
	}
	p := v
	if strings.HasPrefix(p, "~/") {
		p = filepath.Join(cfg.Home, p[2:])
	} else if !filepath.IsAbs(p) {
		p = filepath.Join(cfg.Cwd, p)
	}
	_, err := os.Stat(p)
	return err != nil
}
