package tool

import (
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/hashline"
)

// EditMode is how the edit tool takes its input.
type EditMode string

// Edit modes.
const (
	EditHashline   EditMode = "hashline"    // anchored patch language (default)
	EditReplace    EditMode = "replace"     // old/new text replacement
	EditPatch      EditMode = "patch"       // structured diff hunks
	EditApplyPatch EditMode = "apply_patch" // Codex-style *** Begin Patch envelope
	EditVim        EditMode = "vim"         // modal editing buffer
	EditAtom       EditMode = "atom"        // reserved by the reference; unspecified
)

// Settings are the options the file tools read, taken from the
// configuration (core/config) once per session.
type Settings struct {
	EditMode                             EditMode     // edit.mode; PI_EDIT_VARIANT overrides
	ReadDefaultLimit                     int          // read.defaultLimit: lines of an open-ended read (clamped to 1..DefaultMaxLines)
	ReadHashLines                        bool         // readHashLines: anchors in hashline mode
	ReadLineNumbers                      bool         // readLineNumbers: plain line numbers when anchors are off
	ReadSummarize                        bool         // read.summarize.enabled: long source files read without a selector come as a structural summary
	ReadSummaryMinBody                   int          // read.summarize.minBodyLines: shortest function body a summary elides
	ReadSummaryMinComment                int          // read.summarize.minCommentLines: shortest comment run a summary shortens to its first line
	SearchContextBefore                  int          // search.contextBefore
	SearchContextAfter                   int          // search.contextAfter
	HashlineAutoDropPureInsertDuplicates bool         // edit.hashlineAutoDropPureInsertDuplicates
	EditSeparator                        string       // PI_HL_SEP: prefix of hashline payload lines; "" is hashline.DefaultEditSeparator
	ASTMaxFiles                          int          // PI_MAX_AST_FILES: files one ast_edit may change; 0 is ast.DefaultMaxFiles
	AskTimeout                           int          // ask.timeout in seconds: an unanswered question takes its default; 0 waits forever
	Bash                                 config.Bash  // the bash tool's and background jobs' settings (bashInterceptor.*, async.*, bash.autoBackground.*)
	Shell                                config.Shell // how commands are run: shell, login, prefix, environment (PI_BASH_NO_LOGIN, PI_SHELL_PREFIX, …)
	Eval                                 config.Eval  // the eval tool: runtimes on (eval.py, eval.js, PI_PY), kernel mode, the kernels' environment
	TodoEnabled                          bool         // todo.enabled: offer todo_write
	PlanEnabled                          bool         // plan.enabled: plan mode may be entered; offer exit_plan_mode
	DebugEnabled                         bool         // debug.enabled: offer the debug tool (DAP)
	CheckpointEnabled                    bool         // checkpoint.enabled: offer checkpoint and rewind (top-level sessions)
	ImagesAutoResize                     bool         // images.autoResize: scale images read for the model down to the providers' limits
	InspectImage                         bool         // inspect_image.enabled: read describes images instead of attaching them
	Fetch                                Fetch        // fetch.*: web reads
	// LSPServers is the language server configuration (lsp.enabled, the
	// lsp.json files, the PATH servers are looked up in); nil: no
	// language servers (DefaultSettings).
	LSPServers *config.LSPConfig
	// ReadSQLiteTimeout is read.sqlite.timeoutMs: how long one SQLite
	// read may run before it is interrupted; 0 is config.DefaultSQLiteTimeout.
	ReadSQLiteTimeout time.Duration
	LSP               LSP // lsp.*: the language servers' diagnostics after a write
	// SSHHosts are the hosts of the ssh.json files (config.Config.SSH):
	// the ssh tool is offered when there is one.
	SSHHosts []config.SSHHost
	// SSHHostInfoDirs are where the ssh tool caches each host's probed
	// system and shell: the first is written, the others read
	// (config.Dirs.SSHHostInfoDirs); none: nothing is cached on disk.
	SSHHostInfoDirs []string
}

// LSP are the settings of the diagnostics the file tools ask the
// language servers for after they write.
type LSP struct {
	Enabled            bool          // lsp.enabled: language servers at all
	DiagnosticsOnWrite bool          // lsp.diagnosticsOnWrite: after the write tool
	DiagnosticsOnEdit  bool          // lsp.diagnosticsOnEdit: after edit (every mode) and ast_edit
	DiagnosticsBudget  time.Duration // lsp.diagnosticsBudgetMs: how long a call waits for them
}

// enabled reports whether writes of kind are followed by diagnostics.
func (l LSP) enabled(kind WriteKind) bool {
	if !l.Enabled {
		return false
	}
	if kind == WriteEdit {
		return l.DiagnosticsOnEdit
	}
	return l.DiagnosticsOnWrite
}

// Fetch are the settings of web reads.
type Fetch struct {
	Enabled   bool          // fetch.enabled: read may fetch http(s) URLs
	Connect   time.Duration // fetch.connectTimeoutMs; 0 keeps the reader's default
	FirstByte time.Duration // fetch.firstByteTimeoutMs; 0 keeps the reader's default
	Total     time.Duration // fetch.timeoutMs; 0 keeps the reader's default
}

// DefaultSettings returns the settings of a configuration that sets
// nothing: the settings schema's defaults.
func DefaultSettings() Settings {
	s, _ := config.NewSettings("")
	return settingsFrom(s)
}

// SettingsFrom returns the tool settings a configuration gives: its
// merged settings (PI_EDIT_VARIANT and the other forcing variables are
// already in them) plus the values read from the environment.
func SettingsFrom(c *config.Config) Settings {
	s := settingsFrom(c.Settings)
	s.EditSeparator = c.HashlineSeparator()
	s.ASTMaxFiles = c.ASTMaxFiles()
	s.Shell = c.Shell()
	s.Eval = c.Eval()
	s.LSPServers = c.LSP()
	s.SSHHosts = c.SSH().Hosts
	s.SSHHostInfoDirs = c.SSHHostInfoDirs()
	return s
}

// settingsFrom maps the settings keys onto the tool settings.
func settingsFrom(cs *config.Settings) Settings {
	mode, ok := ParseEditMode(cs.EditMode())
	if !ok {
		mode = EditHashline
	}
	read := cs.Read()
	before, after := cs.SearchContext()
	return Settings{
		EditMode:                             mode,
		ReadDefaultLimit:                     read.DefaultLimit,
		ReadHashLines:                        read.HashLines,
		ReadLineNumbers:                      read.LineNumbers,
		ReadSummarize:                        read.Summarize,
		ReadSummaryMinBody:                   read.MinBodyLines,
		ReadSummaryMinComment:                read.MinCommentLines,
		SearchContextBefore:                  before,
		SearchContextAfter:                   after,
		HashlineAutoDropPureInsertDuplicates: cs.Bool("edit.hashlineAutoDropPureInsertDuplicates"),
		AskTimeout:                           cs.Int("ask.timeout"),
		TodoEnabled:                          cs.Bool("todo.enabled"),
		PlanEnabled:                          cs.Bool("plan.enabled"),
		DebugEnabled:                         cs.Bool("debug.enabled"),
		CheckpointEnabled:                    cs.Bool("checkpoint.enabled"),
		ImagesAutoResize:                     cs.Bool("images.autoResize"),
		InspectImage:                         cs.Bool("inspect_image.enabled"),
		Bash:                                 cs.Bash(),
		Eval: config.Eval{Python: cs.Bool("eval.py"), JS: cs.Bool("eval.js"), PerCall: cs.String("python.kernelMode") == "per-call",
			PassEnv: cs.Strings("python.passEnv")},
		Fetch: Fetch{Enabled: cs.Bool("fetch.enabled"), Connect: millis(cs.Int("fetch.connectTimeoutMs")),
			FirstByte: millis(cs.Int("fetch.firstByteTimeoutMs")), Total: millis(cs.Int("fetch.timeoutMs"))},
		ReadSQLiteTimeout: read.SQLiteTimeout,
		LSP: LSP{Enabled: cs.Bool("lsp.enabled"), DiagnosticsOnWrite: cs.Bool("lsp.diagnosticsOnWrite"),
			DiagnosticsOnEdit: cs.Bool("lsp.diagnosticsOnEdit"), DiagnosticsBudget: millis(cs.Int("lsp.diagnosticsBudgetMs"))},
	}
}

// millis is n milliseconds; negative values count as 0.
func millis(n int) time.Duration {
	return time.Duration(max(n, 0)) * time.Millisecond
}

// ParseEditMode recognises a mode name (case-insensitive).
func ParseEditMode(s string) (EditMode, bool) {
	switch m := EditMode(strings.ToLower(strings.TrimSpace(s))); m {
	case EditHashline, EditReplace, EditPatch, EditApplyPatch, EditVim, EditAtom:
		return m, true
	}
	return "", false
}

// OpenEndedLimit returns the line limit of a read without an end line:
// ReadDefaultLimit clamped to 1..DefaultMaxLines.
func (s Settings) OpenEndedLimit() int {
	return min(max(s.ReadDefaultLimit, 1), DefaultMaxLines)
}

// Separator returns the hashline payload separator in force.
func (s Settings) Separator() string {
	if s.EditSeparator != "" {
		return s.EditSeparator
	}
	return hashline.DefaultEditSeparator
}
