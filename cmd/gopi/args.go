package main

import (
	"fmt"
	"strconv"
	"strings"
)

// flagSpec declares one command-line flag. Short and long names follow the
// ripgrep/fd conventions: `-A 3`, `-A3`, `--context=3`, `--context 3`,
// combined boolean shorts (`-il`), flags anywhere among the arguments, and
// `--` ending the flags.
type flagSpec struct {
	short   byte   // 0 when the flag has no short form
	long    string // without the leading dashes
	value   string // name of the value for help; "" for a boolean flag
	help    string
	repeats bool // may be given several times (values accumulate)
}

// parsedArgs is the outcome of parsing: flag values by long name and the
// positional arguments in order.
type parsedArgs struct {
	values map[string][]string // a boolean flag records "true" per use
	rest   []string
}

// parseArgs parses args against specs.
func parseArgs(specs []flagSpec, args []string) (*parsedArgs, error) {
	p := &parsedArgs{values: map[string][]string{}}
	byShort := map[byte]*flagSpec{}
	byLong := map[string]*flagSpec{}
	for i := range specs {
		if specs[i].short != 0 {
			byShort[specs[i].short] = &specs[i]
		}
		byLong[specs[i].long] = &specs[i]
	}
	set := func(s *flagSpec, v string) {
		if !s.repeats && s.value != "" {
			p.values[s.long] = p.values[s.long][:0]
		}
		p.values[s.long] = append(p.values[s.long], v)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			p.rest = append(p.rest, args[i+1:]...)
			return p, nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			s := byLong[name]
			if s == nil {
				return nil, usagef("unknown flag --%s", name)
			}
			if s.value == "" {
				if hasVal {
					return nil, usagef("flag --%s takes no value", name)
				}
				set(s, "true")
				continue
			}
			if !hasVal {
				if i+1 >= len(args) {
					return nil, usagef("flag --%s needs a %s", name, s.value)
				}
				i++
				val = args[i]
			}
			set(s, val)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				s := byShort[a[j]]
				if s == nil {
					return nil, usagef("unknown flag -%c", a[j])
				}
				if s.value == "" {
					set(s, "true")
					continue
				}
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return nil, usagef("flag -%c needs a %s", a[j], s.value)
					}
					i++
					val = args[i]
				}
				set(s, val)
				break
			}
		default:
			p.rest = append(p.rest, a)
		}
	}
	return p, nil
}

// flag reports whether a boolean flag was given.
func (p *parsedArgs) flag(long string) bool { return len(p.values[long]) > 0 }

// str returns the last value of a flag, or def.
func (p *parsedArgs) str(long, def string) string {
	if v := p.values[long]; len(v) > 0 {
		return v[len(v)-1]
	}
	return def
}

// all returns every value of a repeatable flag.
func (p *parsedArgs) all(long string) []string { return p.values[long] }

// nonNegInt returns a flag's value as an integer ≥ 0, or def.
func (p *parsedArgs) nonNegInt(long string, def int) (int, error) {
	v := p.str(long, "")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, usagef("--%s needs a whole number ≥ 0, got %q", long, v)
	}
	return n, nil
}

// helpText renders the flag table for --help.
func helpText(specs []flagSpec) string {
	var b strings.Builder
	for _, s := range specs {
		left := "    "
		if s.short != 0 {
			left = fmt.Sprintf("-%c, ", s.short)
		}
		left += "--" + s.long
		if s.value != "" {
			left += " " + s.value
		}
		fmt.Fprintf(&b, "  %-28s %s\n", left, s.help)
	}
	return b.String()
}
