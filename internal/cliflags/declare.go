package cliflags

import (
	"fmt"

	"github.com/spf13/pflag"
)

// Annotations kept on pflag flags (pflag stores them with the flag and
// otherwise ignores them).
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

// ValueName sets the value name shown for a flag whose usage text does
// not name it in backquotes.
func ValueName(fs *pflag.FlagSet, flag, name string) { annotate(fs, flag, annotValue, name) }

// Bound makes an int or duration flag refuse values below min (0 or 1)
// as well as values it cannot parse, with the usage error format (given
// the value as %q).
func Bound(fs *pflag.FlagSet, flag string, min int, format string) {
	annotate(fs, flag, annotMin, fmt.Sprint(min))
	annotate(fs, flag, annotBadValue, format)
}

func annotate(fs *pflag.FlagSet, flag, key, value string) {
	if err := fs.SetAnnotation(flag, key, []string{value}); err != nil {
		panic(err) // a flag that was never declared: a programming error
	}
}

// NonNegIntVarP declares an int flag that must be ≥ 0.
func NonNegIntVarP(fs *pflag.FlagSet, p *int, name, short string, def int, usage string) {
	fs.IntVarP(p, name, short, def, usage)
	shown := "--" + name
	if short != "" {
		shown = "-" + short + "/" + shown
	}
	Bound(fs, name, 0, shown+" needs a whole number ≥ 0, got %q")
}
