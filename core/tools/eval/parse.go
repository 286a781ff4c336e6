package eval

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Language is a cell's runtime.
type Language string

// The runtimes a cell can name.
const (
	Python Language = "python"
	JS     Language = "js"
)

// Timeout bounds of one cell, as omp's eval: 30 s unless the header says
// otherwise, clamped to 1..600 s.
const (
	DefaultTimeout = 30 * time.Second
	MinTimeout     = time.Second
	MaxTimeout     = 600 * time.Second
)

// headerForm is the canonical header, quoted in parse errors.
const headerForm = `*** Cell py:"title" t:30s rst`

// abortWarning ends the result of an input the parser cut at `*** Abort`.
const abortWarning = "The tool input was cut short by an `*** Abort` marker (a damaged stream). Cells before it ran and their state is kept; send the cut cell again."

// Cell is one parsed cell.
type Cell struct {
	Index    int           // 0-based position in the input
	Title    string        // from the header; "" when none
	Code     string        // the body, trailing blank lines dropped
	Language Language      // from the header, else sniffed, else Python
	Explicit bool          // the header (or a code fence) named the language
	Timeout  time.Duration // clamped to MinTimeout..MaxTimeout
	Reset    bool          // rst: wipe this language's runtime before the cell
}

// Input is a parsed eval input.
type Input struct {
	Cells   []Cell
	Aborted bool // an `*** Abort` marker cut the input; the cell it was in is dropped
}

// Markers are case-insensitive and take two or more leading stars.
var (
	cellLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\*{2,}\s*cell\b\s*(.*)$`)
	})
	endLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\*{2,}\s*end\b`)
	})
	abortLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\*{2,}\s*abort\s*$`)
	})
	fenceOpen = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("^```\\s*([A-Za-z]\\w*)?\\s*$")
	})
	fenceEnd = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("^```\\s*$")
	})
	duration = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(\d+)(ms|s|m)?$`)
	})
	attrToken = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([A-Za-z][\w-]*):(.*)$`)
	})
)

// languages maps the language names a header may use.
var languages = map[string]Language{
	"py": Python, "python": Python, "ipy": Python, "ipython": Python,
	"js": JS, "javascript": JS, "ts": JS, "typescript": JS,
}

// Attribute keys: the canonical one first, then the aliases models use.
var (
	titleKeys   = map[string]bool{"id": true, "title": true, "name": true, "cell": true, "file": true, "label": true}
	timeoutKeys = map[string]bool{"t": true, "timeout": true, "duration": true, "time": true}
	resetKeys   = map[string]bool{"rst": true, "reset": true}
)

// Parse splits an eval input into cells. The format is lenient the way
// omp's is: headers are `*** Cell` lines with attributes in any order,
// `*** End` lines are optional, input without a header is one cell (a
// single markdown fence around it is removed), and `*** Abort` drops the
// cell it interrupts and everything after it. Only attribute values that
// cannot be understood (a timeout that is no duration, an rst that is no
// boolean) are errors; each names the header line and the form expected.
func Parse(input string) (*Input, error) {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(input, "\r\n", "\n"), "\r", "\n"), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	out := &Input{}
	if i < len(lines) && !cellLine().MatchString(lines[i]) {
		for _, l := range lines[i:] {
			if abortLine().MatchString(l) {
				out.Aborted = true
				return out, nil
			}
		}
		if c := implicitCell(lines[i:]); c.Code != "" {
			out.Cells = append(out.Cells, c)
		}
		return out, nil
	}
	for i < len(lines) {
		m := cellLine().FindStringSubmatch(lines[i])
		if m == nil {
			if abortLine().MatchString(lines[i]) {
				out.Aborted = true
				break
			}
			i++ // stray text between cells (an `*** End`, a leaked fragment)
			continue
		}
		c, err := parseHeader(m[1], lines[i], i+1)
		if err != nil {
			return nil, err
		}
		i++
		var body []string
		cut := false
		for ; i < len(lines); i++ {
			l := lines[i]
			if abortLine().MatchString(l) {
				cut = true
				break
			}
			if endLine().MatchString(l) {
				i++
				break
			}
			if cellLine().MatchString(l) {
				break
			}
			body = append(body, l)
		}
		if cut {
			out.Aborted = true
			break
		}
		for len(body) > 0 && strings.TrimSpace(body[len(body)-1]) == "" {
			body = body[:len(body)-1]
		}
		c.Code = strings.Join(body, "\n")
		if !c.Explicit {
			c.Language = sniffOr(c.Code, Python)
		}
		c.Index = len(out.Cells)
		out.Cells = append(out.Cells, c)
		for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
			i++
		}
	}
	return out, nil
}

// implicitCell is the one cell of an input without headers: blank edges
// trimmed, a single fence around the whole removed (its language kept).
func implicitCell(lines []string) Cell {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	c := Cell{Timeout: DefaultTimeout}
	if len(lines) >= 2 {
		if m := fenceOpen().FindStringSubmatch(lines[0]); m != nil && fenceEnd().MatchString(lines[len(lines)-1]) {
			lines = lines[1 : len(lines)-1]
			if lang, ok := languages[strings.ToLower(m[1])]; ok {
				c.Language, c.Explicit = lang, true
			}
		}
	}
	c.Code = strings.Join(lines, "\n")
	if !c.Explicit {
		c.Language = sniffOr(c.Code, Python)
	}
	return c
}

// parseHeader reads a header's attributes (rest, after "Cell"); line is
// the whole header and n its 1-based line number, for errors.
func parseHeader(rest, line string, n int) (Cell, error) {
	c := Cell{Timeout: DefaultTimeout}
	var title, positional []string
	var tValue, rstValue *string
	var bareTimeout *time.Duration
	bareReset := false
	bad := func(what, form string) error {
		return fmt.Errorf("eval: cell header %q (line %d): %s; write %s (a header reads %s)", strings.TrimSpace(line), n, what, form, headerForm)
	}
	for _, tok := range tokenize(rest) {
		lower := strings.ToLower(tok)
		if resetKeys[lower] {
			bareReset = true
			continue
		}
		if m := attrToken().FindStringSubmatch(tok); m != nil {
			key, val := strings.ToLower(m[1]), unquote(m[2])
			switch {
			case languages[key] != "":
				if !c.Explicit {
					c.Language, c.Explicit = languages[key], true
				}
				if title == nil && val != "" {
					title = []string{val}
				}
			case titleKeys[key]:
				if title == nil {
					title = []string{val}
				}
			case timeoutKeys[key]:
				if tValue == nil {
					tValue = &val
				}
			case resetKeys[key]:
				if rstValue == nil {
					rstValue = &val
				}
			}
			continue // unknown keys are dropped
		}
		if lang, ok := languages[lower]; ok && !c.Explicit {
			c.Language, c.Explicit = lang, true
			continue
		}
		if bareTimeout == nil && duration().MatchString(tok) {
			d, _ := parseDuration(tok)
			bareTimeout = &d
			continue
		}
		positional = append(positional, tok)
	}
	if t := strings.TrimSpace(strings.Join(title, "")); t != "" {
		c.Title = t
	} else {
		c.Title = strings.TrimSpace(strings.Join(positional, " "))
	}
	switch {
	case tValue != nil:
		d, ok := parseDuration(*tValue)
		if !ok {
			return c, bad(fmt.Sprintf("timeout %q is not a duration", *tValue), "t:<digits> with an optional ms, s or m unit, such as t:500ms, t:45s or t:2m")
		}
		c.Timeout = d
	case bareTimeout != nil:
		c.Timeout = *bareTimeout
	}
	c.Timeout = ClampTimeout(c.Timeout)
	switch {
	case rstValue != nil:
		b, ok := parseBool(*rstValue)
		if !ok {
			return c, bad(fmt.Sprintf("rst value %q is not a boolean", *rstValue), "rst alone, or rst:true / rst:false")
		}
		c.Reset = b
	default:
		c.Reset = bareReset
	}
	return c, nil
}

// ClampTimeout bounds a cell timeout to MinTimeout..MaxTimeout.
func ClampTimeout(d time.Duration) time.Duration { return min(max(d, MinTimeout), MaxTimeout) }

// parseDuration reads digits with an optional ms, s (the default) or m
// unit.
func parseDuration(s string) (time.Duration, bool) {
	m := duration().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil || v > int64(MaxTimeout/time.Millisecond) {
		v = int64(MaxTimeout / time.Millisecond) // clamped later anyway
		m[2] = "ms"
	}
	switch strings.ToLower(m[2]) {
	case "ms":
		return time.Duration(v) * time.Millisecond, true
	case "m":
		return time.Duration(v) * time.Minute, true
	}
	return time.Duration(v) * time.Second, true
}

// parseBool reads the boolean words an rst value may be.
func parseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes", "on":
		return true, true
	case "false", "0", "no", "off":
		return false, true
	}
	return false, false
}

// tokenize splits header attributes at white space, keeping quoted runs
// ("…" or '…', quotes included) inside their token.
func tokenize(s string) []string {
	var out []string
	var cur strings.Builder
	var quote rune
	in := false
	for _, r := range s {
		switch {
		case quote != 0:
			cur.WriteRune(r)
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote, in = r, true
			cur.WriteRune(r)
		case r == ' ' || r == '\t' || r == '\v' || r == '\f' || r == '\u00a0':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			in = true
			cur.WriteRune(r)
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// unquote strips one pair of matching quotes around an attribute value;
// a value opened but never closed loses its opening quote.
func unquote(v string) string {
	if len(v) == 0 || (v[0] != '"' && v[0] != '\'') {
		return v
	}
	if i := strings.IndexByte(v[1:], v[0]); i >= 0 {
		return v[1 : 1+i]
	}
	return v[1:]
}
