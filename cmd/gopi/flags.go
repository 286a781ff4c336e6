package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// usageError is a command-line mistake; main prints it with a hint and exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// Annotations gopi keeps on its pflag flags (pflag stores them with the
// flag and otherwise ignores them).
const (
	// annotValue names a flag's value for the help, the man page and the
	// completions when its usage text does not hold the name in
	// backquotes (pflag's convention): "--script FILE".
	annotValue = "gopi-value"
	// annotBadValue is the usage error for a value the flag cannot take:
	// a format given the value (%q).
	annotBadValue = "gopi-bad-value"
	// annotMin bounds an int or duration flag from below: "0" (≥ 0) or
	// "1" (> 0). A value out of bounds gets the annotBadValue message.
	annotMin = "gopi-min"
)

// valueName sets the value name shown for a flag whose usage text does
// not name it in backquotes.
func valueName(fs *pflag.FlagSet, flag, name string) { annotate(fs, flag, annotValue, name) }

// boundFlag makes an int or duration flag refuse values below min (0 or
// 1) as well as values it cannot parse, with the usage error format
// (given the value as %q).
func boundFlag(fs *pflag.FlagSet, flag string, min int, format string) {
	annotate(fs, flag, annotMin, fmt.Sprint(min))
	annotate(fs, flag, annotBadValue, format)
}

func annotate(fs *pflag.FlagSet, flag, key, value string) {
	if err := fs.SetAnnotation(flag, key, []string{value}); err != nil {
		panic(err) // a flag that was never declared: a programming error
	}
}

// nonNegIntVarP declares an int flag that must be ≥ 0.
func nonNegIntVarP(fs *pflag.FlagSet, p *int, name, short string, def int, usage string) {
	fs.IntVarP(p, name, short, def, usage)
	shown := "--" + name
	if short != "" {
		shown = "-" + short + "/" + shown
	}
	boundFlag(fs, name, 0, shown+" needs a whole number ≥ 0, got %q")
}

// parseFlags parses a command's arguments with fs, as ripgrep and fd take
// them: flags anywhere among the arguments (pflag's interspersed mode),
// `-A3` and `--context=3` as well as `-A 3`, combined boolean shorts, and
// `--` ending the flags; fs.Args() holds the rest. Errors are usage
// errors; a flag declared with boundFlag words its own, with the value as
// typed.
func parseFlags(fs *pflag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	err := fs.ParseAll(args, func(f *pflag.Flag, value string) error {
		err := fs.Set(f.Name, value)
		if msg := f.Annotations[annotBadValue]; len(msg) == 1 && (err != nil || belowMin(fs, f)) {
			return usagef(msg[0], value)
		}
		return err
	})
	var ue *usageError
	if err != nil && !errors.As(err, &ue) {
		err = usagef("%v", err)
	}
	return err
}

// belowMin reports whether the value of a flag declared with boundFlag is
// below its bound.
func belowMin(fs *pflag.FlagSet, f *pflag.Flag) bool {
	min := f.Annotations[annotMin]
	if len(min) != 1 {
		return false
	}
	var v int64
	switch f.Value.Type() {
	case "int":
		n, _ := fs.GetInt(f.Name)
		v = int64(n)
	case "duration":
		d, _ := fs.GetDuration(f.Name)
		v = int64(d)
	default:
		panic("boundFlag on a " + f.Value.Type() + " flag")
	}
	return v < 0 || (min[0] == "1" && v == 0)
}

// flagUsage returns a flag's value name ("" for booleans and counts) and
// its usage text: the name set with valueName and the usage as written,
// or what pflag.UnquoteUsage makes of a backquoted name.
func flagUsage(f *pflag.Flag) (name, usage string) {
	name, usage = pflag.UnquoteUsage(f)
	if v := f.Annotations[annotValue]; len(v) == 1 {
		name, usage = v[0], f.Usage
	}
	if t := f.Value.Type(); t == "bool" || t == "count" {
		name = ""
	}
	return name, usage
}

// pflagHelp renders a pflag flag set for --help: "-A, --after-context N"
// and the usage, the value name from flagUsage (pflag's own rendering
// shows "[=true|false]" on booleans).
func pflagHelp(fs *pflag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *pflag.Flag) {
		left := "    "
		if f.Shorthand != "" {
			left = "-" + f.Shorthand + ", "
		}
		left += "--" + f.Name
		name, usage := flagUsage(f)
		if name != "" {
			left += " " + name
		}
		fmt.Fprintf(&b, "  %-28s %s\n", left, usage)
	})
	return b.String()
}
