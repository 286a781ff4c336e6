package cliflags

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// ManPage is the text of a man page around its generated flag lists; the
// text fields are roff as written into the page.
type ManPage struct {
	Date        time.Time
	Version     string // plain text, escaped when written
	Name        string // the NAME line: "gopi \- terminal coding agent"
	Synopsis    string
	Description string
	// OptionsIntro opens OPTIONS, before the program's own flags.
	OptionsIntro string
	SeeAlso      string
}

// WriteMan writes p's man page in section 1: the program's flags, then
// every command with its flags.
func WriteMan(w io.Writer, p Program, m ManPage) {
	fmt.Fprintf(w, ".TH %s 1 %q \"%s %s\" \"User Commands\"\n", strings.ToUpper(p.Name), m.Date.Format("2006-01-02"), p.Name, RoffEscape(m.Version))
	fmt.Fprintf(w, ".SH NAME\n%s.SH SYNOPSIS\n%s.SH DESCRIPTION\n%s", m.Name, m.Synopsis, m.Description)
	fmt.Fprintf(w, ".SH OPTIONS\n%s", m.OptionsIntro)
	writeManFlags(w, p.Commands[0].Flags)
	fmt.Fprint(w, ".SH COMMANDS\n")
	for _, c := range p.Commands[1:] {
		if c.Flags == nil {
			continue
		}
		fmt.Fprintf(w, ".SS %s %s\n%s\n", p.Name, RoffEscape(strings.Join(c.Path, " ")), RoffEscape(c.Summary))
		writeManFlags(w, c.Flags)
	}
	fmt.Fprintf(w, ".SH SEE ALSO\n%s", m.SeeAlso)
}

func writeManFlags(w io.Writer, fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		name, usage := Usage(f)
		left := ""
		if f.Shorthand != "" {
			left = "\\fB\\-" + RoffEscape(f.Shorthand) + "\\fR, "
		}
		left += "\\fB\\-\\-" + RoffEscape(f.Name) + "\\fR"
		if name != "" {
			left += " \\fI" + RoffEscape(name) + "\\fR"
		}
		fmt.Fprintf(w, ".TP\n%s\n%s\n", left, RoffEscape(usage))
	})
}

// RoffEscape escapes text for roff: backslashes, hyphens, characters
// outside ASCII (as \[uXXXX]), and a leading dot or quote that would start
// a request.
func RoffEscape(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
	if strings.ContainsFunc(s, func(r rune) bool { return r > 0x7e }) {
		var b strings.Builder
		for _, r := range s {
			if r > 0x7e {
				fmt.Fprintf(&b, `\[u%04X]`, r)
			} else {
				b.WriteRune(r)
			}
		}
		s = b.String()
	}
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
