package launch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/auth/oauth"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/permission"
)

// Mode is how a session is driven once built.
type Mode string

// The modes a Request can ask for.
const (
	Print       Mode = "text"        // -p: send the prompts, print the answer
	JSON        Mode = "json"        // --mode json: every event as a JSON line
	RPC         Mode = "rpc"         // --mode rpc: commands on stdin, frames on stdout
	ACP         Mode = "acp"         // the Agent Client Protocol (gopi acp)
	Interactive Mode = "interactive" // the terminal UI
)

// Request describes the session a front end wants. The zero value is a
// new session in the process's working directory with the configured
// model and every built-in tool, saved as usual.
type Request struct {
	// Cwd is the project directory ("" for the process's).
	Cwd string
	// Version is the build's version (the interactive mode's welcome
	// block names it).
	Version string
	// Environ is the environment as KEY=VALUE (nil for the process's).
	Environ []string
	// TrustProject trusts the project for this run (--trust-project).
	TrustProject bool
	// Mode says which mode the session is for: RPC resets the workflow
	// settings a host expects at their defaults, and each mode with
	// someone to ask has its permission gate.
	Mode Mode

	// Model is an id, provider/id or fuzzy name, with an optional
	// ":LEVEL" suffix that sets the thinking level; Provider narrows it
	// (legacy --provider).
	Model, Provider string
	// Smol, Slow and Plan are the role models (modelRoles.*).
	Smol, Slow, Plan string
	// CycleModels are the models Ctrl+P cycles through, each as Model.
	CycleModels []string
	// Thinking is the thinking level ("" for the model's or the setting's).
	Thinking ai.ThinkingLevel
	// APIKey overrides the stored credentials of the model's provider.
	APIKey string
	// SystemPrompt replaces the base system prompt and AppendSystemPrompt
	// is added to it; each is text or a file to read.
	SystemPrompt, AppendSystemPrompt string

	// Continue continues the directory's most recent session.
	Continue bool
	// Resume names a stored session to continue (an id prefix or a
	// path) when ResumeGiven; an empty name is an error.
	Resume      string
	ResumeGiven bool
	// Fork starts a new session branched from a stored one.
	Fork string
	// SessionDir is where sessions are stored and looked up ("" for the
	// agent directory's sessions/).
	SessionDir string
	// NoSession keeps the session in memory only.
	NoSession bool

	// Tools are the built-in tools to enable (nil for all); NoTools
	// enables none.
	Tools   []string
	NoTools bool
	// Skills keeps the skills whose name matches one of these globs.
	Skills []string
	// Extensions are extension files or directories to load besides the
	// discovered ones (-e, --hook).
	Extensions []string
	// PluginDirs are the --plugin-dir directories: plugins loaded for
	// this run only, before the installed ones (core/plugins).
	PluginDirs []string
	// The features a run can leave out.
	// NoLSP (--no-lsp) turns the language servers off for the run, as
	// lsp.enabled false does: no lsp tool, no diagnostics after writes.
	NoTitle, NoSkills, NoRules, NoMCP, NoExtensions, NoPTY, NoLSP bool
	// MCPServers are MCP servers to start besides the configured ones
	// (an editor's, over ACP).
	MCPServers []*config.MCPServer
	// Permissions replaces the mode's permission gate (nil: the mode's
	// own, see PermissionsFor).
	Permissions *permission.Options

	// HTTPClient is the providers' HTTP client (nil for the default).
	HTTPClient *http.Client
	// Logins are the sign-in flows that refresh the tokens stored in
	// agent.db (nil: none; an expired sign-in then asks for a login).
	Logins []oauth.Provider
	// Report receives each start-up problem as one line, without a
	// program name ("warning: …", "extension: …"); nil drops them.
	Report func(line string)
	// Lifetime, when set, ends when the process is told to end (SIGTERM):
	// plugin hooks running then are stopped and SessionEnd hooks get a
	// short grace (plugins.SessionHooks.Terminate).
	Lifetime context.Context
}

// Check rejects combinations that cannot work; the texts name the flags
// of the command line.
func (r *Request) Check() error {
	switch r.Mode {
	case "", Print, JSON, RPC, ACP, Interactive:
	default:
		return fmt.Errorf("unknown --mode %q: use text, json, rpc or acp", r.Mode)
	}
	n := 0
	for _, set := range []bool{r.Continue, r.ResumeGiven, r.Fork != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return errors.New("--continue, --resume and --fork choose the session in different ways: give one of them")
	}
	if r.NoSession && (r.Continue || r.ResumeGiven) {
		return errors.New("--no-session cannot be combined with --continue or --resume (they reopen a saved session)")
	}
	if r.Thinking != "" {
		if _, ok := ai.ParseThinkingLevel(string(r.Thinking)); !ok {
			return fmt.Errorf("unknown --thinking level %q: use off, minimal, low, medium, high or xhigh", r.Thinking)
		}
	}
	return nil
}

// report passes one line to r.Report.
func (r *Request) report(format string, args ...any) {
	if r.Report != nil {
		r.Report(fmt.Sprintf(format, args...))
	}
}

// SplitList splits a comma-separated flag value, dropping blanks.
func SplitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
