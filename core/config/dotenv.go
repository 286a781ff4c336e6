package config

import (
	"fmt"
	"maps"
	"strings"
)

// DotenvError is a line of a .env file that could not be read; the other
// lines still count.
type DotenvError struct {
	Line int    // 1-based line number where the problem starts
	Msg  string // what was wrong
}

func (e *DotenvError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ParseDotenv reads the assignments of a .env file:
//
//	# a comment line
//	KEY=value            # an unquoted value ends at " #" and is trimmed
//	export KEY=value     # "export " is allowed and ignored
//	KEY="a\nb \"q\" $X"  # double quotes: \n \r \t \" \\ \$ are escapes
//	KEY='literal \n'     # single quotes: no escapes
//	KEY="first line
//	second line"         # quoted values may span lines
//
// A later assignment of the same key wins. Nothing is expanded ($X stays
// as written). Lines that are not assignments are reported as errors and
// skipped. The result is never nil.
func ParseDotenv(data []byte) (map[string]string, []error) {
	text := strings.TrimPrefix(string(data), "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	lines := strings.Split(text, "\n")
	vars := map[string]string{}
	var errs []error
	for i := 0; i < len(lines); i++ {
		line := strings.TrimLeft(lines[i], " \t\r")
		if line == "" || line[0] == '#' {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			line = strings.TrimLeft(rest, " \t")
		}
		eq := strings.IndexByte(line, '=')
		if eq < 0 {
			errs = append(errs, &DotenvError{i + 1, fmt.Sprintf("expected KEY=VALUE, got %q", clip(line))})
			continue
		}
		key := strings.TrimRight(line[:eq], " \t")
		if !validEnvName(key) {
			errs = append(errs, &DotenvError{i + 1, fmt.Sprintf("%q is not a variable name (letters, digits, _ . -; not starting with a digit)", clip(key))})
			continue
		}
		value, next, err := dotenvValue(lines, i, strings.TrimLeft(line[eq+1:], " \t"))
		if err != "" {
			errs = append(errs, &DotenvError{i + 1, key + ": " + err})
			continue
		}
		vars[key] = value
		i = next
	}
	return vars, errs
}

// dotenvValue reads the value that starts with rest on lines[i]. It
// returns the value, the index of the last line it used, and a message
// when the value is malformed.
func dotenvValue(lines []string, i int, rest string) (value string, last int, problem string) {
	if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
		if c := inlineComment(rest); c >= 0 {
			rest = rest[:c]
		}
		return strings.TrimRight(rest, " \t\r"), i, ""
	}
	quote := rest[0]
	var b strings.Builder
	body := rest[1:]
	for j := i; j < len(lines); j++ {
		if j > i {
			b.WriteByte('\n')
			body = lines[j]
		}
		for k := 0; k < len(body); k++ {
			c := body[k]
			switch {
			case c == quote:
				after := strings.TrimLeft(body[k+1:], " \t\r")
				if after != "" && after[0] != '#' {
					return "", i, fmt.Sprintf("unexpected %q after the closing quote", clip(after))
				}
				return b.String(), j, ""
			case c == '\\' && quote == '"' && k+1 < len(body):
				k++
				switch e := body[k]; e {
				case 'n':
					b.WriteByte('\n')
				case 'r':
					b.WriteByte('\r')
				case 't':
					b.WriteByte('\t')
				case '"', '\\', '$':
					b.WriteByte(e)
				default:
					b.WriteByte('\\')
					b.WriteByte(e)
				}
			default:
				b.WriteByte(c)
			}
		}
	}
	return "", i, fmt.Sprintf("no closing %c quote", quote)
}

// inlineComment returns the index of a " #" comment in an unquoted value,
// or -1.
func inlineComment(s string) int {
	for k := 1; k < len(s); k++ {
		if s[k] == '#' && (s[k-1] == ' ' || s[k-1] == '\t') {
			return k
		}
	}
	return -1
}

// validEnvName accepts the names .env files use: a letter or underscore,
// then letters, digits, underscores, dots or dashes.
func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
		case i > 0 && (c >= '0' && c <= '9' || c == '.' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// mirrorOMP adds PI_X for every OMP_X of one .env file, replacing a PI_X
// the same file sets: omp's own prefix wins, as in the reference.
func mirrorOMP(vars map[string]string) {
	mirrored := map[string]string{}
	for k, v := range vars {
		if rest, ok := strings.CutPrefix(k, "OMP_"); ok && rest != "" {
			mirrored["PI_"+rest] = v
		}
	}
	maps.Copy(vars, mirrored)
}

// clip shortens text quoted in an error message.
func clip(s string) string {
	s = strings.TrimRight(s, "\r")
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
