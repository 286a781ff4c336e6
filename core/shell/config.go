package shell

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/config"
)

// DefaultGrace is how long a process group gets between SIGTERM and
// SIGKILL.
const DefaultGrace = 5 * time.Second

// nonInteractive are the variables every command gets so that nothing
// waits for a terminal: pagers print, editors and credential prompts
// return at once, package managers do not ask.
var nonInteractive = [][2]string{
	{"PAGER", "cat"}, {"GIT_PAGER", "cat"}, {"MANPAGER", "cat"}, {"SYSTEMD_PAGER", "cat"},
	{"BAT_PAGER", "cat"}, {"DELTA_PAGER", "cat"}, {"GH_PAGER", "cat"}, {"GLAB_PAGER", "cat"},
	{"PSQL_PAGER", "cat"}, {"MYSQL_PAGER", "cat"}, {"AWS_PAGER", ""}, {"HOMEBREW_PAGER", "cat"},
	{"LESS", "FRX"}, {"TERM", "dumb"}, {"GPG_TTY", "not a tty"}, {"NO_COLOR", "1"},
	{"PYTHONUNBUFFERED", "1"}, {"GIT_EDITOR", "true"}, {"VISUAL", "true"}, {"EDITOR", "true"},
	{"GIT_TERMINAL_PROMPT", "0"}, {"SSH_ASKPASS", "/usr/bin/false"},
	{"npm_config_yes", "true"}, {"npm_config_update_notifier", "false"}, {"npm_config_fund", "false"},
	{"npm_config_audit", "false"}, {"npm_config_progress", "false"},
	{"PNPM_DISABLE_SELF_UPDATE_CHECK", "true"}, {"PNPM_UPDATE_NOTIFIER", "false"},
	{"YARN_ENABLE_TELEMETRY", "0"}, {"YARN_ENABLE_PROGRESS_BARS", "0"},
	{"CARGO_TERM_PROGRESS_WHEN", "never"}, {"DEBIAN_FRONTEND", "noninteractive"},
	{"PIP_NO_INPUT", "1"}, {"PIP_DISABLE_PIP_VERSION_CHECK", "1"}, {"TF_INPUT", "0"},
	{"TF_IN_AUTOMATION", "1"}, {"GH_PROMPT_DISABLED", "1"}, {"COMPOSER_NO_INTERACTION", "1"},
	{"CLOUDSDK_CORE_DISABLE_PROMPTS", "1"},
}

// NonInteractiveEnv returns the variables commands get so they never wait
// for a terminal (PAGER=cat, GIT_EDITOR=true, GIT_TERMINAL_PROMPT=0,
// SSH_ASKPASS=/usr/bin/false, …), plus CI=1 unless noCI, in a fixed order.
func NonInteractiveEnv(noCI bool) [][2]string {
	out := slices.Clone(nonInteractive)
	if !noCI {
		out = append(out, [2]string{"CI", "1"})
	}
	return out
}

// Config is how shells are started.
type Config struct {
	Path     string        // the shell binary
	Login    bool          // login shell (-l): the user's profile is read
	Prefix   string        // put before every command with a space (PI_SHELL_PREFIX)
	Env      []string      // the environment shells start with, KEY=VALUE
	Exports  [][2]string   // set again after the profile is read (the non-interactive variables)
	KeepPath string        // PATH entries a login profile may not drop (gopi's own PATH); they are appended when missing
	Grace    time.Duration // SIGTERM → SIGKILL delay when ending a process group; 0 is DefaultGrace

	owner *owner // the Pool whose shells these are (nil: none), set by NewPool
}

// FromConfig resolves the shell of a configuration: the shellPath setting
// (which must exist), else $SHELL when it is an executable bash or zsh,
// else bash or sh from PATH or the usual directories. The environment is
// the configuration's plus the non-interactive variables (CI=1 unless
// PI_BASH_NO_CI) and SHELL.
func FromConfig(c config.Shell) (Config, error) {
	path, err := resolvePath(c)
	if err != nil {
		return Config{}, err
	}
	env := make([]string, 0, len(c.Environ)+len(nonInteractive)+2)
	env = append(env, c.Environ...)
	for _, kv := range NonInteractiveEnv(c.NoCI) {
		env = append(env, kv[0]+"="+kv[1])
	}
	env = append(env, "SHELL="+path)
	cfg := Config{Path: path, Login: c.Login, Prefix: c.Prefix, Env: dedupEnv(env), Exports: NonInteractiveEnv(c.NoCI)}
	for _, kv := range cfg.Env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			cfg.KeepPath = v
		}
	}
	return cfg, nil
}

// resolvePath picks the shell binary.
func resolvePath(c config.Shell) (string, error) {
	if c.Path != "" {
		if _, err := os.Stat(c.Path); err != nil {
			return "", fmt.Errorf("shell %s from the shellPath setting: %w (fix shellPath in config.yml or remove it)", c.Path, err)
		}
		return c.Path, nil
	}
	base := filepath.Base(c.UserShell)
	if (strings.Contains(base, "bash") || strings.Contains(base, "zsh")) && executable(c.UserShell) {
		return c.UserShell, nil
	}
	var pathDirs []string
	for _, kv := range c.Environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathDirs = filepath.SplitList(v)
		}
	}
	dirs := append(pathDirs, "/bin", "/usr/bin", "/usr/local/bin", "/opt/homebrew/bin")
	for _, name := range []string{"bash", "sh"} {
		for _, d := range dirs {
			if p := filepath.Join(d, name); d != "" && executable(p) {
				return p, nil
			}
		}
	}
	return "", errors.New("no shell found: install bash, or set shellPath in config.yml")
}

func executable(p string) bool {
	if p == "" || !filepath.IsAbs(p) {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// dedupEnv keeps the last value of each key, in first-seen order.
func dedupEnv(env []string) []string {
	last := make(map[string]int, len(env))
	for i, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		last[k] = i
	}
	out := make([]string, 0, len(last))
	for i, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if last[k] == i {
			out = append(out, kv)
		}
	}
	return out
}

// grace returns the SIGTERM → SIGKILL delay in force.
func (c Config) grace() time.Duration {
	if c.Grace > 0 {
		return c.Grace
	}
	return DefaultGrace
}

// args returns the shell's arguments before the command text (-c) or for
// reading commands from standard input (-s).
func (c Config) args(mode string) []string {
	if c.Login {
		return []string{"-l", mode}
	}
	return []string{mode}
}

// preamble is the shell text run after the profile, before any command:
// the non-interactive variables, and gopi's PATH entries the profile
// dropped, appended.
func (c Config) preamble() string {
	var b strings.Builder
	bi := c.builtinWord()
	b.WriteString(exportLine(bi, c.Exports))
	if c.Login && c.KeepPath != "" {
		fmt.Fprintf(&b, `__gopi_k=%[1]s; __gopi_ifs=$IFS; IFS=:; for __gopi_p in $__gopi_k; do case ":$PATH:" in *":$__gopi_p:"*) ;; *) PATH="${PATH:+$PATH:}$__gopi_p";; esac; done; IFS=$__gopi_ifs; %[2]sunset __gopi_ifs __gopi_p __gopi_k; %[2]sexport PATH; `, Quote(c.KeepPath), bi)
	}
	return b.String()
}

// builtinWord goes before every command of gopi's own shell text (cd,
// printf, export, …) so that a user's alias or function of the same name
// is not run instead: `\builtin ` for bash and zsh, `\command ` for other
// shells, which have no builtin. The backslash keeps the word itself from
// alias expansion.
func (c Config) builtinWord() string {
	base := filepath.Base(c.Path)
	if strings.Contains(base, "bash") || strings.Contains(base, "zsh") {
		return `\builtin `
	}
	return `\command `
}

// withPrefix applies the configured prefix to a command.
func (c Config) withPrefix(command string) string {
	if c.Prefix == "" {
		return command
	}
	return c.Prefix + " " + command
}

// Quote returns s as one single-quoted shell word.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
