package bash

import (
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/tool"
)

// Timeout bounds in seconds.
const (
	DefaultTimeout = 300
	MinTimeout     = 1
	MaxTimeout     = 3600
)

var (
	envNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
	// leadingCd matches `cd <dir> &&` at the start of a command; the
	// directory may hold backslash escapes but no unescaped & or \.
	leadingCd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^cd\s+((?:[^&\\]|\\.)+?)\s*&&\s*`) })
	// leadingCdThen matches a command starting with `cd <dir>` followed by
	// ; or a newline, or nothing: the directory is taken whether or not
	// the cd succeeds, so it is not moved to cwd.
	leadingCdThen = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^cd\s+((?:[^;&|<>\n\\]|\\.)+?)\s*(?:[;\n]|$)`) })
)

// input is a call's arguments after normalisation.
type input struct {
	Command   string            // the command, without a leading `cd X &&` moved to Cwd
	Original  string            // the command as given
	Env       map[string]string // extra variables
	Cwd       string            // the directory as given ("" when none)
	Timeout   float64           // seconds, clamped
	Requested float64           // seconds as requested
	PTY       bool
	Async     bool
	Head      int // keep the first Head lines (0: all)
	Tail      int // then the last Tail lines (0: all)
}

// rawInput mirrors the JSON arguments.
type rawInput struct {
	Command string            `json:"command"`
	Env     map[string]string `json:"env"`
	Timeout *float64          `json:"timeout"`
	Cwd     string            `json:"cwd"`
	PTY     bool              `json:"pty"`
	Async   bool              `json:"async"`
	Head    int               `json:"head"`
	Tail    int               `json:"tail"`
}

// parseInput decodes and normalises a call's arguments: the env names are
// checked, a leading `cd X &&` becomes Cwd when no cwd was given, and the
// timeout is clamped to MinTimeout..MaxTimeout.
func parseInput(args tool.Args) (input, error) {
	var r rawInput
	if err := args.Decode(&r); err != nil {
		return input{}, err
	}
	for k := range r.Env {
		if !envNamePattern().MatchString(k) {
			return input{}, tool.Errorf("Invalid bash env name: %s", k)
		}
	}
	in := input{Command: r.Command, Original: r.Command, Env: r.Env, Cwd: r.Cwd, PTY: r.PTY, Async: r.Async, Head: max(r.Head, 0), Tail: max(r.Tail, 0)}
	if in.Cwd == "" {
		if m := leadingCd().FindStringSubmatch(in.Command); m != nil {
			in.Cwd = unquoteDir(strings.TrimSpace(m[1]))
			in.Command = in.Command[len(m[0]):]
		}
	}
	in.Requested = DefaultTimeout
	if r.Timeout != nil && !math.IsNaN(*r.Timeout) {
		in.Requested = *r.Timeout
	}
	in.Timeout = min(max(in.Requested, MinTimeout), MaxTimeout)
	return in, nil
}

// leadingCdDir returns the directory a command changes to before
// anything else (`cd DIR; …`, `cd DIR` and a newline, `cd DIR` alone), or
// "" when it does not start so. The `cd DIR && …` form is moved to cwd
// by parseInput instead.
func leadingCdDir(command string) string {
	if m := leadingCdThen().FindStringSubmatch(command); m != nil {
		return unquoteDir(strings.TrimSpace(m[1]))
	}
	return ""
}

// unquoteDir strips one pair of surrounding quotes, as omp does.
func unquoteDir(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	s = strings.TrimPrefix(strings.TrimPrefix(s, `"`), `'`)
	return strings.TrimSuffix(strings.TrimSuffix(s, `"`), `'`)
}

// clampNotice is the line telling the model its timeout was clamped, or
// "".
func (in input) clampNotice() string {
	if in.Requested == in.Timeout {
		return ""
	}
	return "Timeout clamped to " + formatSeconds(in.Timeout) + "s (requested " + formatSeconds(in.Requested) +
		"s; allowed range 1-3600s)."
}

// formatSeconds prints a number of seconds without a needless fraction.
func formatSeconds(s float64) string {
	return strings.TrimSuffix(strings.TrimRight(strconvFormat(s), "0"), ".")
}
