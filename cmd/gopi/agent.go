package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/modes/printmode"
	"github.com/gopi-agent/gopi/core/modes/rpc"
	"github.com/gopi-agent/gopi/core/prompt"
	"github.com/gopi-agent/gopi/core/session"
)

// agentFlags are the agent's command-line flags; they mirror omp's.
type agentFlags struct {
	model, smol, slow, plan, provider, apiKey string
	systemPrompt, appendSystemPrompt          string
	mode                                      string
	print, cont, noSession, noTools, noTitle  bool
	noMCP, trustProject                       bool
	resume, fork, sessionDir                  string
	resumeGiven, listModelsGiven              bool
	listModels                                string
	tools, thinking                           string
	verbose, help, version                    bool
	hooks                                     []string
	export                                    string
	// Accepted for compatibility; they turn off features gopi does not
	// have yet, so they have nothing to do.
	allowHome, noLSP, noPTY, noExtensions, noSkills, noRules bool
	skills, modelsCycle                                      string
}

// newAgentFlagSet declares the flags on a fresh pflag set.
func newAgentFlagSet(f *agentFlags) *pflag.FlagSet {
	fs := pflag.NewFlagSet("gopi", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVar(&f.model, "model", "", `model to use: id, provider/id or a fuzzy name ("opus", "gpt-5.2"); MODEL:LEVEL sets thinking`)
	fs.StringVar(&f.smol, "smol", "", "model for small tasks such as titles (or PI_SMOL_MODEL)")
	fs.StringVar(&f.slow, "slow", "", "model for slow, thorough reasoning (or PI_SLOW_MODEL)")
	fs.StringVar(&f.plan, "plan", "", "model for planning (or PI_PLAN_MODEL)")
	fs.StringVar(&f.provider, "provider", "", "provider to pick the model from (legacy; prefer --model provider/id)")
	fs.StringVar(&f.apiKey, "api-key", "", "API key for the model's provider (default: stored credentials and environment)")
	fs.StringVar(&f.systemPrompt, "system-prompt", "", "replace the base system prompt (text, or a file to read)")
	fs.StringVar(&f.appendSystemPrompt, "append-system-prompt", "", "append text or a file's contents to the system prompt")
	fs.BoolVar(&f.allowHome, "allow-home", false, "accepted for compatibility (gopi runs in the home directory as is)")
	fs.StringVar(&f.mode, "mode", "text", "output mode: text, json (every event as a JSON line), rpc (commands on stdin, frames on stdout) or acp (as gopi acp)")
	fs.BoolVarP(&f.print, "print", "p", false, "non-interactive: send the messages, print the answer and exit")
	fs.BoolVarP(&f.cont, "continue", "c", false, "continue the most recent session of this directory")
	fs.StringVarP(&f.resume, "resume", "r", "", "resume a session by id prefix or path (without a value: list this directory's sessions)")
	fs.StringVar(&f.fork, "fork", "", "start a new session branched from the session with this id prefix or path")
	fs.StringVar(&f.sessionDir, "session-dir", "", "directory for session storage and lookup")
	fs.BoolVar(&f.noSession, "no-session", false, "do not save the session")
	fs.StringVar(&f.modelsCycle, "models", "", "comma-separated models Ctrl+P cycles through in the interactive mode (each a name, id or search, as --model)")
	fs.BoolVar(&f.noTools, "no-tools", false, "disable all built-in tools")
	fs.BoolVar(&f.noLSP, "no-lsp", false, "accepted for compatibility (gopi has no LSP integration yet)")
	fs.BoolVar(&f.noPTY, "no-pty", false, "never run the bash tool's commands in a pseudo-terminal (as PI_NO_PTY=1)")
	fs.StringVar(&f.tools, "tools", "", "comma-separated built-in tools to enable (default: all)")
	fs.StringVar(&f.thinking, "thinking", "", "thinking level: off, minimal, low, medium, high, xhigh")
	fs.StringArrayVar(&f.hooks, "hook", nil, "load a hook file (loaded as an extension)")
	fs.StringArrayVarP(&f.hooks, "extension", "e", nil, "load an extension (a .ts/.js file or a directory); repeatable")
	fs.BoolVar(&f.noMCP, "no-mcp", false, "do not start the MCP servers of mcp.json files")
	fs.BoolVar(&f.trustProject, "trust-project", false, "trust this project for this run: its MCP servers, extensions, tools, settings and .env take effect without a question (also PI_TRUST_PROJECT=1)")
	fs.BoolVar(&f.noExtensions, "no-extensions", false, "do not load extensions (neither discovered nor given with -e)")
	fs.BoolVar(&f.noSkills, "no-skills", false, "do not discover or offer skills")
	fs.StringVar(&f.skills, "skills", "", "comma-separated globs: keep only the skills whose name matches (e.g. git-*,docker)")
	fs.BoolVar(&f.noRules, "no-rules", false, "do not discover or apply rules")
	fs.StringVar(&f.export, "export", "", "export a session file to a self-contained HTML page and exit (the first message names the page; default gopi-session-<name>.html)")
	fs.StringVar(&f.listModels, "list-models", "", "list the models (optionally matching a search) and exit")
	fs.BoolVar(&f.noTitle, "no-title", false, "do not generate a session title (also PI_NO_TITLE)")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "print mode: show tool calls and their outcome on stderr")
	fs.BoolVarP(&f.help, "help", "h", false, "show this help")
	fs.BoolVar(&f.version, "version", false, "print the version")
	return fs
}

const agentUsageHead = `gopi %s — a terminal coding agent

Usage:
  gopi [FLAGS] [MESSAGES...]     talk to the agent (messages starting with @ attach files)
  gopi COMMAND [ARGS...]         run an engine or a tool directly (list below)

A first argument naming a command runs that command; anything else is a
message for the agent. Put -- before a message that happens to be a
command name: gopi -p -- grep the logs for errors.

On a terminal (standard input and output), gopi opens the interactive mode,
sending any messages first. Give -p to run non-interactively, as gopi does
when input or output is not a terminal; piped standard input is added
before the first message.

Flags:
`

const agentUsageTail = `
Examples:
  gopi -p "List all .go files under cmd/"
  gopi @prompt.md @screenshot.png "What is wrong here?"
  gopi --continue "What did we discuss?"
  gopi --model opus --thinking high "Refactor the parser"
  gopi --mode json -p "Summarise README.md" > events.jsonl
  git diff | gopi -p "Review this change"

Environment:
  ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, …   provider keys ('gopi models' shows which are set)
  PI_CODING_AGENT_DIR     agent directory (default ~/.gopi/agent; omp's ~/.omp/agent is read too)
  PI_SMOL_MODEL, PI_SLOW_MODEL, PI_PLAN_MODEL   role models
  PI_NO_TITLE             no automatic session titles
  PI_TRUST_PROJECT        1: trust the project for this run (as --trust-project)

Exit status: 0 when the model finished, 1 when the run failed (provider
error, session not saved), 2 for bad flags or input, 130 when interrupted
(143 for SIGTERM, 129 for SIGHUP; the partial answer is kept).
`

// printAgentUsage prints the agent's help: flags, then the commands.
func printAgentUsage(w io.Writer) {
	var f agentFlags
	fs := newAgentFlagSet(&f)
	fmt.Fprintf(w, agentUsageHead, version)
	fmt.Fprint(w, flagUsages(fs))
	fmt.Fprint(w, "\nCommands:\n")
	for _, name := range sortedCommands() {
		fmt.Fprintf(w, "  %-10s %s\n", name, commands[name].summary)
	}
	fmt.Fprint(w, "\nRun 'gopi COMMAND --help' for a command's flags.\n")
	fmt.Fprint(w, agentUsageTail)
}

// valueNames name the values of the agent's flags in --help.
var valueNames = map[string]string{
	"model": "MODEL", "smol": "MODEL", "slow": "MODEL", "plan": "MODEL", "provider": "NAME", "api-key": "KEY",
	"system-prompt": "TEXT|FILE", "append-system-prompt": "TEXT|FILE", "mode": "MODE", "resume": "ID",
	"fork": "ID", "session-dir": "DIR", "models": "LIST", "tools": "LIST", "thinking": "LEVEL",
	"hook": "FILE", "extension": "FILE", "skills": "LIST", "export": "FILE", "list-models": "SEARCH",
}

// flagUsages renders the flag table: "-p, --print", "--model VALUE"
// (pflag's own rendering shows "[=true|false]" on every boolean).
func flagUsages(fs *pflag.FlagSet) string {
	type row struct{ left, help string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		left := "    "
		if f.Shorthand != "" {
			left = "-" + f.Shorthand + ", "
		}
		left += "--" + f.Name
		if f.Value.Type() != "bool" {
			name := valueNames[f.Name]
			if name == "" {
				name = "VALUE"
			}
			left += " " + name
		}
		help := f.Usage
		if f.DefValue != "" && f.Value.Type() == "string" {
			help += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		rows = append(rows, row{left, help})
		width = max(width, len(left))
	})
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, r.left, r.help)
	}
	return b.String()
}

// optionalValueFlags are flags whose value may be left out (omp's
// "--resume" opens a picker, "--list-models" lists everything), each with
// its long form.
var optionalValueFlags = map[string]string{"-r": "--resume", "--resume": "--resume", "--list-models": "--list-models"}

// fillOptionalValues gives a value-less optional flag an explicit empty
// value, so "gopi -r" and "gopi --list-models -p x" parse. The empty value
// is given in the long form: pflag reads "-r=" as the value "=".
func fillOptionalValues(args []string) (out []string, given map[string]bool) {
	given = map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...), given
		}
		name, _, hasValue := strings.Cut(a, "=")
		if long, ok := optionalValueFlags[name]; ok {
			given[name] = true
			if !hasValue && (i+1 >= len(args) || strings.HasPrefix(args[i+1], "-")) {
				out = append(out, long+"=")
				continue
			}
		}
		out = append(out, a)
	}
	return out, given
}

// runAgent is gopi without a command: the agent.
func runAgent(ctx context.Context, env *cliEnv, args []string) int {
	var f agentFlags
	fs := newAgentFlagSet(&f)
	fs.SetOutput(io.Discard)
	args, given := fillOptionalValues(args)
	f.resumeGiven = given["-r"] || given["--resume"]
	f.listModelsGiven = given["--list-models"]
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(env.stderr, "gopi: %v (see 'gopi --help')\n", err)
		return exitError
	}
	if f.help {
		printAgentUsage(env.stdout)
		return exitMatch
	}
	if f.version {
		return runVersion(ctx, env, nil)
	}
	if err := f.check(); err != nil {
		fmt.Fprintf(env.stderr, "gopi: %v\n", err)
		return exitError
	}
	ctx, caught, stopTrap := trapTermSignals(ctx)
	defer stopTrap()
	status := runAgentWith(ctx, env, fs, &f)
	if sig, ok := caught().(syscall.Signal); ok && status == printmode.ExitInterrupted {
		status = 128 + int(sig)
	}
	return status
}

// termSignals end a run as Ctrl-C does — the partial answer is printed and
// kept in the session — with exit status 128+signal, as omp exits:
// `timeout`, `docker stop` or a closed terminal must not lose the answer.
var termSignals = []os.Signal{syscall.SIGTERM, syscall.SIGHUP}

// signalCause is the cancellation cause of a caught signal.
type signalCause struct{ sig os.Signal }

func (c signalCause) Error() string { return "received " + c.sig.String() }

// trapTermSignals returns a context cancelled by the first of termSignals
// (a second one ends the process, see signals.go), a function telling
// which signal was caught (nil if none), and stop, which withdraws the
// claim and ends the watching goroutine.
func trapTermSignals(parent context.Context) (ctx context.Context, caught func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs, release := claimSignal(termSignals...)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case sig := <-sigs:
			cancel(signalCause{sig})
		case <-ctx.Done():
		}
	}()
	caught = func() os.Signal {
		var c signalCause
		if errors.As(context.Cause(ctx), &c) {
			return c.sig
		}
		return nil
	}
	stop = func() {
		release()
		cancel(nil)
		<-done
	}
	return ctx, caught, stop
}

// runAgentWith runs the agent once the flags are parsed and checked.
func runAgentWith(ctx context.Context, env *cliEnv, fs *pflag.FlagSet, f *agentFlags) int {

	environ := env.environ
	if f.noPTY {
		// --no-pty is PI_NO_PTY=1 for this run.
		if environ == nil {
			environ = os.Environ()
		}
		environ = append(slices.Clip(environ), config.EnvNoPTY+"=1")
	}
	cfg, err := config.Load(config.LoadOptions{Environ: environ, Overrides: f.overrides(), TrustProject: f.trustProject})
	if err != nil {
		fmt.Fprintf(env.stderr, "gopi: %v\n", err)
		return exitError
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(env.stderr, "gopi: warning: %v\n", w)
	}
	env.cfg = cfg
	if f.listModelsGiven {
		return listModels(ctx, env, f.listModels)
	}

	messages := fs.Args()
	if f.export != "" {
		return exportSession(env, cfg, f.export, messages)
	}
	if f.mode == "acp" {
		// omp starts its ACP agent as --mode acp: the same as `gopi acp`.
		args := []string{}
		if f.model != "" {
			args = append(args, "--model", f.model)
		}
		if f.thinking != "" {
			args = append(args, "--thinking", f.thinking)
		}
		if f.sessionDir != "" {
			args = append(args, "--session-dir", f.sessionDir)
		}
		if f.noTitle {
			args = append(args, "--no-title")
		}
		if f.trustProject {
			args = append(args, "--trust-project")
		}
		return runACP(ctx, env, append(args, messages...))
	}
	if f.mode == "rpc" {
		if len(messages) > 0 {
			fmt.Fprintln(env.stderr, "gopi: --mode rpc takes no messages or @files: standard input carries the commands; send prompts as prompt commands")
			return exitError
		}
		settleTrust(ctx, env, cfg, false)
		return runRPC(ctx, env, cfg, f)
	}
	dash := fs.ArgsLenAtDash()
	prompts, err := readPrompts(ctx, env, cfg, messages, dash)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(env.stderr, "gopi: interrupted while reading the input")
		return printmode.ExitInterrupted
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "gopi: %v\n", err)
		return exitError
	}
	if len(prompts) == 0 && f.resumeGiven && f.resume == "" {
		return listSessions(env, cfg, f.sessionDir)
	}
	if env.stdinTerminal && env.isTerminal && !f.print && f.mode == "text" {
		if t := cfg.Env.Get("TERM"); t == "dumb" {
			fmt.Fprintln(env.stderr, "gopi: the interactive mode needs a terminal that understands escape sequences (TERM is dumb). Give a message with -p to run without it, e.g. gopi -p \"explain this repository\".")
			return exitError
		}
		if !settleTrust(ctx, env, cfg, true) {
			return printmode.ExitInterrupted
		}
		return runInteractive(ctx, env, cfg, f, prompts)
	}
	if len(prompts) == 0 {
		if env.stdinTerminal && !f.print {
			fmt.Fprintln(env.stderr, "gopi: the interactive mode needs a terminal on standard output too. Give a message to run non-interactively, e.g. gopi -p \"explain this repository\" (see 'gopi --help').")
			return exitError
		}
		fmt.Fprintf(env.stderr, "gopi: %v (see 'gopi --help')\n", printmode.ErrNoPrompt)
		return exitError
	}

	settleTrust(ctx, env, cfg, false)
	// The system prompt reports git status, the slowest part of start-up:
	// start it now so that it runs while models and the session load.
	gitProbe := prompt.StartGitStatus(ctx, cfg.Cwd, agentsession.GitStatusTimeout)
	s, ok := f.openSession(ctx, env, cfg, func(o *agentsession.Options) { o.GitStatus = gitProbe })
	if !ok {
		return exitError
	}
	// A closed output pipe makes writes fail instead of killing the
	// process, so the run is aborted cleanly and the session kept.
	catchBrokenPipe()
	format := printmode.Text
	if f.mode == "json" {
		format = printmode.JSON
	}
	status := printmode.Run(ctx, s, prompts, printmode.Options{Format: format, Verbose: f.verbose, Stdout: env.stdout, Stderr: env.stderr})
	if err := s.Close(); err != nil && status == printmode.ExitOK {
		fmt.Fprintf(env.stderr, "gopi: the session could not be saved: %v\n", err)
		status = printmode.ExitFailed
	}
	return status
}

// check rejects flag combinations that cannot work.
func (f *agentFlags) check() error {
	switch f.mode {
	case "text", "json", "rpc", "acp":
	default:
		return fmt.Errorf("unknown --mode %q: use text, json, rpc or acp", f.mode)
	}
	n := 0
	for _, set := range []bool{f.cont, f.resumeGiven, f.fork != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return errors.New("--continue, --resume and --fork choose the session in different ways: give one of them")
	}
	if f.noSession && (f.cont || f.resumeGiven) {
		return errors.New("--no-session cannot be combined with --continue or --resume (they reopen a saved session)")
	}
	if f.thinking != "" {
		if _, ok := ai.ParseThinkingLevel(f.thinking); !ok {
			return fmt.Errorf("unknown --thinking level %q: use off, minimal, low, medium, high or xhigh", f.thinking)
		}
	}
	return nil
}

// rpcResetPrefixes are the settings RPC mode puts back to their defaults:
// they change how a run proceeds, and a host expects the documented
// behaviour whatever the user configured.
var rpcResetPrefixes = []string{"todo.", "task.", "async.", "bash.autoBackground."}

// overrides turns role flags into runtime settings (and, in RPC mode,
// resets the workflow settings).
func (f *agentFlags) overrides() map[string]any {
	o := map[string]any{}
	if f.mode == "rpc" {
		for _, k := range config.Keys() {
			for _, p := range rpcResetPrefixes {
				if strings.HasPrefix(k, p) {
					if d, ok := config.Lookup(k); ok {
						o[k] = d.Default
					}
				}
			}
		}
	}
	for role, v := range map[string]string{"smol": f.smol, "slow": f.slow, "plan": f.plan} {
		if v != "" {
			o["modelRoles."+role] = v
		}
	}
	return o
}

// sessionOptions resolves the model, the tools and the session store.
func (f *agentFlags) sessionOptions(env *cliEnv, cfg *config.Config, reg *models.Registry) (agentsession.Options, error) {
	opts := agentsession.Options{
		Config:             cfg,
		Models:             reg,
		NoSession:          f.noSession,
		SessionDir:         f.sessionDir,
		APIKey:             f.apiKey,
		SystemPrompt:       f.systemPrompt,
		AppendSystemPrompt: f.appendSystemPrompt,
		NoTitle:            f.noTitle,
		NoSkills:           f.noSkills,
		NoRules:            f.noRules,
		NoMCP:              f.noMCP,
	}
	for _, pat := range strings.Split(f.skills, ",") {
		if pat = strings.TrimSpace(pat); pat != "" {
			opts.SkillPatterns = append(opts.SkillPatterns, pat)
		}
	}
	if f.thinking != "" {
		opts.Thinking = ai.ThinkingLevel(f.thinking)
	}
	for _, pat := range strings.Split(f.modelsCycle, ",") {
		if pat = strings.TrimSpace(pat); pat == "" {
			continue
		}
		m, err := reg.Find(pat)
		if err != nil {
			return opts, fmt.Errorf("--models %s: %w", pat, err)
		}
		opts.CycleModels = append(opts.CycleModels, m)
	}
	if m, level, err := f.pickModel(reg); err != nil {
		return opts, err
	} else if m != nil {
		opts.Model = m
		if level != "" && opts.Thinking == "" {
			opts.Thinking = level
		}
	}
	switch {
	case f.noTools:
		opts.ToolNames = []string{}
	case f.tools != "":
		for _, n := range strings.Split(f.tools, ",") {
			if n = strings.TrimSpace(n); n != "" {
				opts.ToolNames = append(opts.ToolNames, n)
			}
		}
	}
	loc := agentsession.Locations(cfg, f.sessionDir)
	sopts := agentsession.StoreOptions(cfg, cfg.Cwd, f.sessionDir)
	var err error
	switch {
	case f.cont:
		opts.Store, err = session.ContinueRecent(loc, cfg.Cwd, sopts)
	case f.resumeGiven:
		var path string
		if path, err = session.Resolve(loc, cfg.Cwd, f.resume); err == nil {
			opts.Store, err = session.Open(path, sopts)
		}
		if err == nil && !isPathArg(f.resume) && otherProject(opts.Store.Cwd(), cfg.Cwd) {
			// As omp does without a terminal to ask on: an id found in
			// another project is not silently continued here.
			err = fmt.Errorf("session %q is in another project (%s): continue it there, or fork it into this directory with --fork %s", f.resume, opts.Store.Cwd(), f.resume)
			opts.Store.Close()
			opts.Store = nil
		}
	case f.fork != "":
		var path string
		if path, err = session.Resolve(loc, cfg.Cwd, f.fork); err == nil {
			if f.noSession {
				err = errors.New("--fork writes a new session file: drop --no-session")
			} else {
				sopts.ParentSession = path
				opts.Store, err = session.ForkFile(path, "", sopts)
			}
		}
	}
	if errors.Is(err, session.ErrInvalidHeader) {
		err = fmt.Errorf("%w: give a session file that gopi or omp wrote, or run gopi --resume without an argument to pick one from a list", err)
	}
	if err != nil {
		return opts, err
	}
	if opts.Store != nil {
		for _, p := range opts.Store.Problems() {
			fmt.Fprintf(env.stderr, "gopi: warning: %s %s (the line is kept in the file)\n", opts.Store.File(), p)
		}
	}
	return opts, nil
}

// isPathArg reports whether a --resume or --fork argument names a file
// rather than an id prefix (the rule session.Resolve applies).
func isPathArg(arg string) bool {
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

// pickModel resolves --model and --provider.
func (f *agentFlags) pickModel(reg *models.Registry) (*ai.Model, ai.ThinkingLevel, error) {
	query, level, _ := models.ParseModelArg(f.model)
	switch {
	case query == "" && f.provider == "":
		return nil, "", nil
	case query == "":
		p, ok := reg.Provider(f.provider)
		if !ok {
			return nil, "", fmt.Errorf("unknown --provider %q ('gopi models' lists the providers)", f.provider)
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
		return nil, "", fmt.Errorf("provider %q has no models", f.provider)
	case f.provider != "" && !strings.Contains(query, "/"):
		query = f.provider + "/" + query
		if m, err := reg.Find(query); err == nil {
			return m, level, nil
		}
		query = f.model
	}
	m, err := reg.Find(query)
	if err != nil {
		return nil, "", fmt.Errorf("--model: %w", err)
	}
	return m, level, nil
}

// maxPipedInput bounds what gopi reads from a pipe into the first prompt.
const maxPipedInput = 10 << 20

// maxFileArg bounds an @file's text; larger files are named, not inlined.
// A variable so tests can lower it.
var maxFileArg = 5 << 20

// maxImageArg bounds an @image.
const maxImageArg = 25 << 20

// readPrompts runs buildPrompts until it is done or ctx ends (Ctrl-C):
// piped input that never ends ("sleep 1000 | gopi -p hi") or an @file
// whose read blocks must not make the first Ctrl-C do nothing. On
// cancellation the read is left blocked; the process exits right after.
func readPrompts(ctx context.Context, env *cliEnv, cfg *config.Config, args []string, dash int) ([]printmode.Prompt, error) {
	type result struct {
		prompts []printmode.Prompt
		err     error
	}
	done := make(chan result, 1)
	go func() {
		p, err := buildPrompts(env, cfg, args, dash)
		done <- result{p, err}
	}()
	select {
	case r := <-done:
		return r.prompts, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// buildPrompts turns the messages, @file arguments and piped input into
// prompts: the first prompt holds the piped input, then the files, then
// the first message; each further message is a prompt of its own.
// Arguments after "--" (index dash) are messages even when they start
// with @.
func buildPrompts(env *cliEnv, cfg *config.Config, args []string, dash int) ([]printmode.Prompt, error) {
	var files []string
	var msgs []string
	for i, a := range args {
		if strings.HasPrefix(a, "@") && len(a) > 1 && (dash < 0 || i < dash) {
			files = append(files, a[1:])
			continue
		}
		msgs = append(msgs, a)
	}
	var text strings.Builder
	var images []*ai.ImageContent
	for _, name := range files {
		if err := addFileArg(&text, &images, cfg, name, env.stderr); err != nil {
			return nil, err
		}
	}
	piped, err := readPiped(env)
	if err != nil {
		return nil, err
	}
	body := text.String()
	if len(msgs) > 0 {
		body += msgs[0]
		msgs = msgs[1:]
	}
	var prompts []printmode.Prompt
	switch {
	case piped != "" && body != "":
		prompts = append(prompts, printmode.Prompt{Text: piped + "\n" + body, Images: images})
	case piped != "":
		prompts = append(prompts, printmode.Prompt{Text: piped, Images: images})
	case body != "" || len(images) > 0:
		prompts = append(prompts, printmode.Prompt{Text: body, Images: images})
	}
	for _, m := range msgs {
		prompts = append(prompts, printmode.Prompt{Text: m})
	}
	return prompts, nil
}

// readPiped reads standard input when it is not a terminal; "" when there
// is none or it is blank.
func readPiped(env *cliEnv) (string, error) {
	if env.stdinTerminal || env.stdin == nil {
		return "", nil
	}
	data, err := io.ReadAll(io.LimitReader(env.stdin, maxPipedInput+1))
	if err != nil {
		return "", fmt.Errorf("read piped input: %w", err)
	}
	if len(data) > maxPipedInput {
		return "", fmt.Errorf("piped input is larger than %d MB: pipe less, or save it to a file and ask the agent to read it (an @FILE is inlined only up to %d MB)", maxPipedInput>>20, maxFileArg>>20)
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", nil
	}
	return string(data), nil
}

// addFileArg inlines a text file or attaches an image, as omp does: text
// as <file name="ABS">…</file>, an image as a block plus an empty <file>
// tag naming it.
func addFileArg(text *strings.Builder, images *[]*ai.ImageContent, cfg *config.Config, name string, stderr io.Writer) error {
	path := name
	if strings.HasPrefix(path, "~/") {
		path = filepath.Join(cfg.Home, path[2:])
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(cfg.Cwd, path)
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("@%s: file not found (%s)", name, path)
	}
	if !info.Mode().IsRegular() {
		if info.IsDir() {
			return fmt.Errorf("@%s: is a directory; attach files (the agent can list directories with its read tool)", name)
		}
		return fmt.Errorf("@%s: not a regular file", name)
	}
	fh, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("@%s: %w", name, err)
	}
	defer fh.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(fh, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("@%s: %w", name, err)
	}
	head = head[:n]
	mime := imageMIME(http.DetectContentType(head))
	limit := int64(maxFileArg)
	if mime != "" {
		limit = maxImageArg
	}
	if info.Size() > limit {
		fmt.Fprintf(text, "<file name=\"%s\">(skipped: too large, %d bytes)</file>\n", path, info.Size())
		warnTooLarge(stderr, name, limit)
		return nil
	}
	// The size from stat is not a bound: files under /proc report 0 and
	// a log can grow while it is read.
	rest, err := io.ReadAll(io.LimitReader(fh, limit+1-int64(n)))
	if err != nil {
		return fmt.Errorf("@%s: %w", name, err)
	}
	data := append(head, rest...)
	if int64(len(data)) > limit {
		fmt.Fprintf(text, "<file name=\"%s\">(skipped: too large, more than %d bytes)</file>\n", path, limit)
		warnTooLarge(stderr, name, limit)
		return nil
	}
	if len(data) == 0 {
		return nil
	}
	if mime != "" {
		*images = append(*images, &ai.ImageContent{Data: base64.StdEncoding.EncodeToString(data), MIMEType: mime})
		fmt.Fprintf(text, "<file name=\"%s\"></file>\n", path)
		return nil
	}
	fmt.Fprintf(text, "<file name=\"%s\">\n%s\n</file>\n", path, data)
	return nil
}

// warnTooLarge tells the user that only an @file's name is sent: the
// model would otherwise answer about a file it never saw.
func warnTooLarge(stderr io.Writer, name string, limit int64) {
	fmt.Fprintf(stderr, "gopi: warning: @%s is larger than %s; only its name is sent (attach a smaller part, or let the agent read it with its tools)\n", name, sizeText(limit))
}

// sizeText renders a byte count as "5 MB" or "100 bytes".
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// imageMIME keeps the image types models accept.
func imageMIME(detected string) string {
	switch detected {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return detected
	}
	return ""
}

// listSessions prints this directory's sessions (gopi -r without an id).
func listSessions(env *cliEnv, cfg *config.Config, sessionDir string) int {
	infos, err := session.List(agentsession.Locations(cfg, sessionDir), cfg.Cwd)
	if err != nil {
		fmt.Fprintf(env.stderr, "gopi: %v\n", err)
		return exitError
	}
	if len(infos) == 0 {
		fmt.Fprintln(env.stderr, "gopi: no sessions for this directory yet")
		return exitNoMatch
	}
	for _, in := range infos {
		printSessionLine(env.stdout, in, "")
	}
	fmt.Fprintln(env.stderr, "Resume one with: gopi -r ID \"message\"")
	return exitMatch
}

// printSessionLine prints one session of the -r list and, indented under
// it, the subagent sessions it started (named by their task id).
func printSessionLine(w io.Writer, in session.Info, indent string) {
	title := in.Title
	if title == "" {
		title = firstLineOf(in.FirstMessage)
	}
	count := fmt.Sprintf("%3d msgs", in.MessageCount)
	if in.Partial {
		// Only the start of a long file is read: the count is a floor.
		count = fmt.Sprintf("%3d+ msgs", in.MessageCount)
	}
	name := shortID(in.ID)
	if indent != "" {
		name = indent + "└─ " + strings.TrimSuffix(filepath.Base(in.Path), ".jsonl")
	}
	fmt.Fprintf(w, "%s  %s  %s  %s\n", name, in.Modified.Local().Format(time.DateTime), count, title)
	for _, c := range in.Children {
		printSessionLine(w, c, indent+"   ")
	}
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > 70 {
		s = string(r[:70]) + "…"
	}
	return s
}

// listModels implements --list-models [SEARCH].
func listModels(ctx context.Context, env *cliEnv, search string) int {
	args := []string{}
	if strings.TrimSpace(search) != "" {
		args = append(args, search)
	}
	return runModels(ctx, env, args)
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

// openSession builds the session the flags describe (model, tools,
// stored session), lets adjust change the options, and reports problems on
// stderr; ok is false when there is no session.
func (f *agentFlags) openSession(ctx context.Context, env *cliEnv, cfg *config.Config, adjust func(*agentsession.Options)) (*agentsession.Session, bool) {
	reg, err := models.Load(models.OptionsFor(cfg))
	if err != nil {
		fmt.Fprintf(env.stderr, "gopi: %v\n", err)
		return nil, false
	}
	// Extensions load first: the providers they declare can be the model
	// the flags ask for.
	var extOpts agentsession.Options
	attach, abandon := f.loadExtensions(ctx, env, cfg, &extOpts, reg)
	opts, err := f.sessionOptions(env, cfg, reg)
	if err != nil {
		abandon()
		fmt.Fprintf(env.stderr, "gopi: %v\n", err)
		return nil, false
	}
	opts.Hooks = append(opts.Hooks, extOpts.Hooks...)
	opts.HTTPClient = env.httpClient
	for flag, v := range map[string]string{"--system-prompt": f.systemPrompt, "--append-system-prompt": f.appendSystemPrompt} {
		if looksLikeMissingFile(cfg, v) {
			fmt.Fprintf(env.stderr, "gopi: warning: %s %q names no file; it is used as the text itself\n", flag, v)
		}
	}
	if adjust != nil {
		adjust(&opts)
	}
	s, err := agentsession.New(ctx, opts)
	if err != nil {
		abandon()
		if opts.Store != nil {
			opts.Store.Close()
		}
		fmt.Fprintf(env.stderr, "gopi: %v\n", err)
		return nil, false
	}
	if msg := s.Model().FallbackMessage(); msg != "" {
		fmt.Fprintf(env.stderr, "gopi: %s\n", msg)
	}
	for _, w := range s.Resources().Warnings() {
		if !errors.Is(w, config.ErrShadowed) { // copies in several agents' directories are normal
			fmt.Fprintf(env.stderr, "gopi: warning: %v\n", w)
		}
	}
	for _, w := range append(s.Resources().SecretsProblems(), s.Resources().MCPStatus().Problems()...) {
		fmt.Fprintf(env.stderr, "gopi: warning: %s\n", w)
	}
	for _, w := range s.Resources().MCPStatus().Warnings() {
		env.warn(w)
	}
	attach(s)
	return s, true
}

// runRPC serves --mode rpc: the session is built as for -p (no title
// request: the host decides), then standard input carries the commands.
func runRPC(ctx context.Context, env *cliEnv, cfg *config.Config, f *agentFlags) int {
	s, ok := f.openSession(ctx, env, cfg, func(o *agentsession.Options) {
		o.NoTitle = true
		o.Permissions = rpcPermissions(cfg)
	})
	if !ok {
		return exitError
	}
	catchBrokenPipe()
	var cmds []rpc.Command
	for _, c := range env.extCommands {
		cmds = append(cmds, rpc.Command{Name: c.Name, Run: c.Run})
	}
	return rpc.Run(ctx, s, rpc.Options{In: env.stdin, Out: env.stdout, EmitTitle: cfg.Env.Get("PI_RPC_EMIT_TITLE") == "1", Commands: cmds, Warnings: env.warnings})
}
