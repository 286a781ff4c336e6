package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/launch"
	"github.com/gopi-agent/gopi/core/modes/printmode"
	"github.com/gopi-agent/gopi/core/prompt"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/internal/signals"
)

// agentFlags are the agent's command-line flags; they mirror omp's.
type agentFlags struct {
	model, smol, slow, plan, provider, apiKey                string
	systemPrompt, appendSystemPrompt                         string
	mode                                                     string
	print, cont, noSession, noTools, noTitle                 bool
	noMCP, trustProject                                      bool
	resume, fork, sessionDir                                 string
	resumeGiven, listModelsGiven                             bool
	listModels                                               string
	tools, thinking                                          string
	verbose, help, version                                   bool
	hooks                                                    []string
	export                                                   string
	allowHome, noLSP, noPTY, noExtensions, noSkills, noRules bool
	skills, modelsCycle                                      string
	pluginDirs                                               []string // --plugin-dir: see launch.Request.PluginDirs
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
	fs.BoolVar(&f.allowHome, "allow-home", false, "work in the home directory when started there (without it gopi moves to ~/tmp, else /tmp or /var/tmp, as omp does)")
	fs.StringVar(&f.mode, "mode", "text", "output mode: text, json (every event as a JSON line), rpc (commands on stdin, frames on stdout) or acp (as gopi acp)")
	fs.BoolVarP(&f.print, "print", "p", false, "non-interactive: send the messages, print the answer and exit")
	fs.BoolVarP(&f.cont, "continue", "c", false, "continue the most recent session of this directory")
	fs.StringVarP(&f.resume, "resume", "r", "", "resume a session by id prefix or path (without a value: list this directory's sessions)")
	fs.StringVar(&f.fork, "fork", "", "start a new session branched from the session with this id prefix or path")
	fs.StringVar(&f.sessionDir, "session-dir", "", "directory for session storage and lookup")
	fs.BoolVar(&f.noSession, "no-session", false, "do not save the session")
	fs.StringVar(&f.modelsCycle, "models", "", "comma-separated models Ctrl+P cycles through in the interactive mode (each a name, id or search, as --model)")
	fs.BoolVar(&f.noTools, "no-tools", false, "disable all built-in tools")
	fs.BoolVar(&f.noLSP, "no-lsp", false, "disable the language servers: no lsp tool, no diagnostics after edits and writes (as lsp.enabled false)")
	fs.BoolVar(&f.noPTY, "no-pty", false, "never run the bash tool's commands in a pseudo-terminal (as PI_NO_PTY=1)")
	fs.StringVar(&f.tools, "tools", "", "comma-separated built-in tools to enable (default: all)")
	fs.StringVar(&f.thinking, "thinking", "", "thinking level: off, minimal, low, medium, high, xhigh")
	fs.StringArrayVar(&f.hooks, "hook", nil, "load a hook file (loaded as an extension)")
	fs.StringArrayVarP(&f.hooks, "extension", "e", nil, "load an extension (a .ts/.js file or a directory); repeatable")
	fs.BoolVar(&f.noMCP, "no-mcp", false, "do not start the MCP servers of mcp.json files")
	fs.BoolVar(&f.trustProject, "trust-project", false, "trust this project for this run: its MCP servers, extensions, tools, settings and .env take effect without a question (also PI_TRUST_PROJECT=1)")
	fs.BoolVar(&f.noExtensions, "no-extensions", false, "do not discover extensions (explicit -e and --hook files still load)")
	fs.StringArrayVar(&f.pluginDirs, "plugin-dir", nil, "load a plugin from a directory for this run; repeatable")
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
  GOOGLE_CLOUD_PROJECT, GOOGLE_CLOUD_LOCATION   Vertex AI with application default credentials
                          (GOOGLE_APPLICATION_CREDENTIALS, or 'gcloud auth application-default login')
  AWS_PROFILE, AWS_REGION (or AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY)   Amazon Bedrock
  TAVILY_API_KEY, BRAVE_API_KEY, EXA_API_KEY, SEARXNG_ENDPOINT, …   web search providers ('gopi search --help')
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
	fmt.Fprint(w, cliflags.Table(fs, valueNames))
	fmt.Fprint(w, "\nCommands:\n")
	for _, name := range sortedCommands() {
		fmt.Fprintf(w, "  %-11s %s\n", name, commands[name].summary)
	}
	fmt.Fprint(w, "\nRun 'gopi COMMAND --help' for a command's flags.\n")
	fmt.Fprint(w, agentUsageTail)
}

// valueNames name the values of the agent's flags in --help.
var valueNames = map[string]string{
	"model": "MODEL", "smol": "MODEL", "slow": "MODEL", "plan": "MODEL", "provider": "NAME", "api-key": "KEY",
	"system-prompt": "TEXT|FILE", "append-system-prompt": "TEXT|FILE", "mode": "MODE", "resume": "ID",
	"fork": "ID", "session-dir": "DIR", "models": "LIST", "tools": "LIST", "thinking": "LEVEL",
	"hook": "FILE", "extension": "FILE", "plugin-dir": "DIR", "skills": "LIST", "export": "FILE", "list-models": "SEARCH",
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
	req := f.request(env)
	if err := req.Check(); err != nil {
		fmt.Fprintf(env.stderr, "gopi: %v\n", err)
		return exitError
	}
	ctx, caught, stopTrap := signals.TrapTerm(ctx)
	defer stopTrap()
	req.Lifetime = ctx
	status := runAgentWith(ctx, env, fs, &f, req)
	if sig, ok := caught().(syscall.Signal); ok && status == printmode.ExitInterrupted {
		status = 128 + int(sig)
	}
	return status
}

// runAgentWith runs the agent once the flags are parsed and checked:
// the launch path builds the session the request describes and runs the
// mode; this function decides which, and asks what needs a terminal.
func runAgentWith(ctx context.Context, env *cliEnv, fs *pflag.FlagSet, f *agentFlags, req *launch.Request) int {
	cfg, err := launch.LoadConfig(req)
	if err == nil && !f.allowHome && req.Cwd == "" && !f.listModelsGiven && f.export == "" {
		// Started in the home directory: work in ~/tmp (or /tmp) instead,
		// as omp does, unless --allow-home.
		if dir, ok := launch.HomeFallback(cfg); ok {
			req.Cwd = dir
			cfg, err = launch.LoadConfig(req)
		}
	}
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
	if req.Mode == launch.RPC {
		if len(messages) > 0 {
			fmt.Fprintln(env.stderr, "gopi: --mode rpc takes no messages or @files: standard input carries the commands; send prompts as prompt commands")
			return exitError
		}
		settleTrust(ctx, env, cfg, false)
		// The session is built as for -p, without a title request (the
		// host decides).
		st, ok := startSession(ctx, env, req, cfg, func(o *agentsession.Options) { o.NoTitle = true })
		if !ok {
			return exitError
		}
		signals.CatchBrokenPipe()
		return st.RunRPC(ctx, cfg, env.stdin, env.stdout)
	}
	prompts, err := launch.Prompts(ctx, cfg, launch.PromptInput{
		Args: messages, Dash: fs.ArgsLenAtDash(), Stdin: env.stdin, StdinTerminal: env.stdinTerminal,
		MaxFileBytes: env.maxFileArg, Report: req.Report,
	})
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
	// The system prompt reports git status, the slowest part of start-up:
	// start it now so that it runs while models and the session load.
	withGitProbe := func() func(*agentsession.Options) {
		probe := prompt.StartGitStatus(ctx, cfg.Cwd, agentsession.GitStatusTimeout)
		return func(o *agentsession.Options) { o.GitStatus = probe }
	}
	if env.stdinTerminal && env.isTerminal && !f.print && f.mode == "text" {
		if t := cfg.Env.Get("TERM"); t == "dumb" {
			fmt.Fprintln(env.stderr, "gopi: the interactive mode needs a terminal that understands escape sequences (TERM is dumb). Give a message with -p to run without it, e.g. gopi -p \"explain this repository\".")
			return exitError
		}
		if !settleTrust(ctx, env, cfg, true) {
			return printmode.ExitInterrupted
		}
		req.Mode = launch.Interactive
		st, ok := startSession(ctx, env, req, cfg, withGitProbe())
		if !ok {
			return exitError
		}
		return st.RunInteractive(ctx, req, cfg, launch.Terminal{In: env.stdin, Out: env.stdout, Environ: env.environ}, prompts)
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
	st, ok := startSession(ctx, env, req, cfg, withGitProbe())
	if !ok {
		return exitError
	}
	// A closed output pipe makes writes fail instead of killing the
	// process, so the run is aborted cleanly and the session kept.
	signals.CatchBrokenPipe()
	format := printmode.Text
	if req.Mode == launch.JSON {
		format = printmode.JSON
	}
	return st.RunPrint(ctx, req, prompts, printmode.Options{Format: format, Verbose: f.verbose, Stdout: env.stdout, Stderr: env.stderr})
}

// startSession builds the session through the launch path; a failure is
// reported and ok is false.
func startSession(ctx context.Context, env *cliEnv, req *launch.Request, cfg *config.Config, adjust func(*agentsession.Options)) (*launch.Started, bool) {
	st, err := launch.Open(ctx, req, cfg, adjust)
	if err != nil {
		fmt.Fprintf(env.stderr, "gopi: %v\n", err)
		return nil, false
	}
	return st, true
}

// request turns the flags into what the launch path takes.
func (f *agentFlags) request(env *cliEnv) *launch.Request {
	r := &launch.Request{
		Version:            version,
		Environ:            env.environ,
		TrustProject:       f.trustProject,
		Mode:               launch.Mode(f.mode),
		Model:              f.model,
		Provider:           f.provider,
		Smol:               f.smol,
		Slow:               f.slow,
		Plan:               f.plan,
		CycleModels:        launch.SplitList(f.modelsCycle),
		Thinking:           ai.ThinkingLevel(f.thinking),
		APIKey:             f.apiKey,
		SystemPrompt:       f.systemPrompt,
		AppendSystemPrompt: f.appendSystemPrompt,
		Continue:           f.cont,
		Resume:             f.resume,
		ResumeGiven:        f.resumeGiven,
		Fork:               f.fork,
		SessionDir:         f.sessionDir,
		NoSession:          f.noSession,
		Tools:              launch.SplitList(f.tools),
		NoTools:            f.noTools,
		Skills:             launch.SplitList(f.skills),
		Extensions:         f.hooks,
		NoTitle:            f.noTitle,
		NoSkills:           f.noSkills,
		PluginDirs:         f.pluginDirs,
		NoRules:            f.noRules,
		NoMCP:              f.noMCP,
		NoExtensions:       f.noExtensions,
		NoPTY:              f.noPTY,
		NoLSP:              f.noLSP,
		HTTPClient:         env.httpClient,
		Logins:             env.signIns(),
		Report:             func(line string) { fmt.Fprintf(env.stderr, "gopi: %s\n", line) },
	}
	return r
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
