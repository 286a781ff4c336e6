package cliflags

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

// UsageError is a command-line mistake; gopi prints it with a hint and
// exits 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a UsageError with the formatted message.
func Usagef(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

// Parse parses a command's arguments with fs, as ripgrep and fd take
// them: flags anywhere among the arguments (pflag's interspersed mode),
// `-A3` and `--context=3` as well as `-A 3`, combined boolean shorts, and
// `--` ending the flags; fs.Args() holds the rest. Errors are usage
// errors; a flag declared with Bound words its own, with the value as
// typed.
func Parse(fs *pflag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	err := fs.ParseAll(args, func(f *pflag.Flag, value string) error {
		err := fs.Set(f.Name, value)
		if msg := f.Annotations[annotBadValue]; len(msg) == 1 && (err != nil || belowMin(fs, f)) {
			return Usagef(msg[0], value)
		}
		return err
	})
	var ue *UsageError
	if err != nil && !errors.As(err, &ue) {
		err = Usagef("%v", err)
	}
	return err
}

// belowMin reports whether the value of a flag declared with Bound is
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
		panic("Bound on a " + f.Value.Type() + " flag")
	}
	return v < 0 || (min[0] == "1" && v == 0)
}
