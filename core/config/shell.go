package config

import (
	"regexp"
	"strings"
	"time"
)

// Environment variables that shape how the bash tool starts shells. The
// CLAUDE_* spellings are honoured as omp honours them. A variable counts
// as set when it is non-empty (even "0"), as in omp.
const (
	EnvBashNoLogin       = "PI_BASH_NO_LOGIN"         // run the shell with -c instead of -l -c (no profile)
	EnvBashNoLoginAlt    = "CLAUDE_BASH_NO_LOGIN"     // older spelling of PI_BASH_NO_LOGIN
	EnvBashNoCI          = "PI_BASH_NO_CI"            // do not set CI=1 in commands' environment
	EnvBashNoCIAlt       = "CLAUDE_BASH_NO_CI"        // older spelling of PI_BASH_NO_CI
	EnvShellPrefix       = "PI_SHELL_PREFIX"          // text put before every command (a profiler, strace, …)
	EnvShellPrefixAlt    = "CLAUDE_CODE_SHELL_PREFIX" // older spelling of PI_SHELL_PREFIX
	EnvNoPTY             = "PI_NO_PTY"                // "1" turns the bash tool's PTY mode off
	EnvUserShell         = "SHELL"                    // the user's login shell
	defaultPollWait      = 30 * time.Second
	defaultAutoThreshold = 60 * time.Second
	maxAsyncJobs         = 100
)

// Shell says how commands are run: which shell, with which arguments and
// environment. The bash tool and the user's "!cmd" path read it.
type Shell struct {
	Path      string   // shellPath setting: the shell binary; "" picks $SHELL (bash or zsh), else bash, else sh
	UserShell string   // $SHELL
	Login     bool     // start shells as login shells (-l); PI_BASH_NO_LOGIN turns it off
	Prefix    string   // PI_SHELL_PREFIX: put before every command, separated by a space
	NoCI      bool     // PI_BASH_NO_CI: leave CI unset in commands' environment
	NoPTY     bool     // PI_NO_PTY=1: the bash tool never uses a pseudo-terminal
	Environ   []string // the environment commands start from (process plus .env files), KEY=VALUE
}

// Shell returns the shell configuration.
func (c *Config) Shell() Shell {
	first := func(keys ...string) string {
		for _, k := range keys {
			if v := c.Env.Get(k); v != "" {
				return v
			}
		}
		return ""
	}
	return Shell{
		Path:      c.Settings.String("shellPath"),
		UserShell: c.Env.Get(EnvUserShell),
		Login:     first(EnvBashNoLogin, EnvBashNoLoginAlt) == "",
		Prefix:    first(EnvShellPrefix, EnvShellPrefixAlt),
		NoCI:      first(EnvBashNoCI, EnvBashNoCIAlt) != "",
		NoPTY:     c.Env.Get(EnvNoPTY) == "1",
		Environ:   c.Env.Environ(),
	}
}

// InterceptorRule is one bashInterceptor.patterns entry: a command that
// matches Pattern is refused with Message while Tool is offered.
type InterceptorRule struct {
	Pattern string // regular expression, matched against the trimmed command
	Flags   string // JavaScript-style flags; i, m and s are honoured
	Tool    string // the tool the model should use instead
	Message string // why, and what to do
}

// Regexp compiles the rule's pattern with its flags; an error means the
// rule is skipped.
func (r InterceptorRule) Regexp() (*regexp.Regexp, error) {
	var flags strings.Builder
	for _, f := range r.Flags {
		if strings.ContainsRune("ims", f) && !strings.ContainsRune(flags.String(), f) {
			flags.WriteRune(f)
		}
	}
	p := r.Pattern
	if flags.Len() > 0 {
		p = "(?" + flags.String() + ")" + p
	}
	return regexp.Compile(p)
}

// Bash is the bash tool's and the background jobs' settings.
type Bash struct {
	InterceptorEnabled bool              // bashInterceptor.enabled (default false)
	InterceptorRules   []InterceptorRule // bashInterceptor.patterns; nil: the tool's built-in rules
	AsyncEnabled       bool              // async.enabled: the async parameter and the job tool (default false)
	AsyncMaxJobs       int               // async.maxJobs clamped to 1..100 (default 100)
	PollWait           time.Duration     // async.pollWaitDuration: how long job polls wait (default 30s)
	AutoBackground     bool              // bash.autoBackground.enabled (default false)
	AutoThreshold      time.Duration     // bash.autoBackground.thresholdMs (default 60s)
	MaxArtifactBytes   int64             // bash.maxArtifactBytes: about the most bytes of a command's output artifact (its head and tail past it); 0 no cap (default DefaultMaxArtifactBytes)
}

// DefaultMaxArtifactBytes is bash.maxArtifactBytes's default, 64 MiB:
// far more than anyone reads of a command's output (the model sees 50 KB),
// small enough that a runaway command in a long session does not fill
// the disk: past it the artifact keeps the first and last 32 MiB.
const DefaultMaxArtifactBytes = 64 << 20

// Bash returns the bash tool's settings.
func (s *Settings) Bash() Bash {
	b := Bash{
		InterceptorEnabled: s.Bool("bashInterceptor.enabled"),
		AsyncEnabled:       s.Bool("async.enabled"),
		AsyncMaxJobs:       min(max(s.Int("async.maxJobs"), 1), maxAsyncJobs),
		PollWait:           parsePollWait(s.String("async.pollWaitDuration")),
		AutoBackground:     s.Bool("bash.autoBackground.enabled"),
		AutoThreshold:      defaultAutoThreshold,
		MaxArtifactBytes:   int64(max(s.Float("bash.maxArtifactBytes"), 0)),
	}
	if s.IsSet("bash.autoBackground.thresholdMs") {
		b.AutoThreshold = time.Duration(max(s.Float("bash.autoBackground.thresholdMs"), 0) * float64(time.Millisecond))
	}
	if l, ok := s.value("bashInterceptor.patterns").([]any); ok && len(l) > 0 {
		b.InterceptorRules = []InterceptorRule{}
		for _, e := range l {
			m, ok := e.(map[string]any)
			if !ok {
				continue
			}
			str := func(k string) string { v, _ := m[k].(string); return v }
			b.InterceptorRules = append(b.InterceptorRules, InterceptorRule{Pattern: str("pattern"), Flags: str("flags"), Tool: str("tool"), Message: str("message")})
		}
	}
	return b
}

// parsePollWait maps async.pollWaitDuration's values to durations; an
// unknown value is the default, 30s.
func parsePollWait(v string) time.Duration {
	switch v {
	case "5s":
		return 5 * time.Second
	case "10s":
		return 10 * time.Second
	case "1m":
		return time.Minute
	case "5m":
		return 5 * time.Minute
	}
	return defaultPollWait
}
