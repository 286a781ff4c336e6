package read

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// rtfSkipped are destinations whose text is not document content.
var rtfSkipped = map[string]bool{
	"fonttbl": true, "colortbl": true, "stylesheet": true, "info": true, "pict": true,
	"header": true, "headerl": true, "headerr": true, "headerf": true,
	"footer": true, "footerl": true, "footerr": true, "footerf": true,
	"object": true, "themedata": true, "colorschememapping": true, "latentstyles": true,
	"datastore": true, "listtable": true, "listoverridetable": true, "rsidtbl": true,
	"generator": true, "filetbl": true, "revtbl": true, "xmlnstbl": true, "fldinst": true,
	"bkmkstart": true, "bkmkend": true,
}

// rtfWords are control words that stand for text.
var rtfWords = map[string]string{
	"par": "\n", "line": "\n", "sect": "\n\n", "page": "\n\n", "tab": "\t", "cell": " | ", "row": "\n",
	"emdash": "—", "endash": "–", "bullet": "•", "lquote": "‘", "rquote": "’",
	"ldblquote": "“", "rdblquote": "”", "emspace": " ", "enspace": " ",
}

// rtfText extracts the plain text of an RTF document: groups of the
// destinations above are skipped, control words that stand for text are
// replaced, \'hh bytes are decoded in the document's code page (\ansicpg,
// Windows-1252 by default) and \uN characters are taken with their
// fallback skipped.
func rtfText(b []byte) (string, error) {
	if !strings.HasPrefix(strings.TrimLeft(string(b[:min(len(b), 16)]), " \r\n\t"), `{\rtf`) {
		return "", errors.New(`not an RTF file (it does not start with "{\rtf")`)
	}
	type state struct {
		skip bool // text of this group is dropped
		uc   int  // fallback characters after \uN
	}
	var out docText
	var pending []byte // \'hh bytes waiting to be decoded
	var enc encoding.Encoding = charmap.Windows1252
	flush := func() {
		if len(pending) == 0 {
			return
		}
		if s, err := enc.NewDecoder().Bytes(pending); err == nil {
			_ = out.add(string(s))
		}
		pending = pending[:0]
	}
	stack := []state{{uc: 1}}
	skipFallback := 0 // fallback characters still to drop
	for i := 0; i < len(b) && !out.cut; {
		cur := &stack[len(stack)-1]
		c := b[i]
		switch {
		case c == '{':
			flush()
			stack = append(stack, *cur)
			i++
			if i+1 < len(b) && b[i] == '\\' && b[i+1] == '*' { // an ignorable destination
				stack[len(stack)-1].skip = true
				i += 2
			}
		case c == '}':
			flush()
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			i++
		case c == '\\' && i+1 < len(b):
			i++
			c = b[i]
			if c == '\'' && i+2 < len(b) {
				v, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8)
				i += 3
				if err != nil {
					continue
				}
				if skipFallback > 0 {
					skipFallback--
					continue
				}
				if !cur.skip {
					pending = append(pending, byte(v))
				}
				continue
			}
			if !isASCIILetter(c) { // a control symbol
				i++
				flush()
				if cur.skip {
					continue
				}
				switch c {
				case '\\', '{', '}':
					_ = out.add(string(c))
				case '~':
					_ = out.add("\u00a0")
				case '_':
					_ = out.add("\u2011")
				case '\n', '\r':
					_ = out.add("\n")
				}
				continue
			}
			start := i
			for i < len(b) && isASCIILetter(b[i]) {
				i++
			}
			word := string(b[start:i])
			numStart := i
			if i < len(b) && b[i] == '-' {
				i++
			}
			for i < len(b) && b[i] >= '0' && b[i] <= '9' {
				i++
			}
			arg, hasArg := 0, i > numStart
			if hasArg {
				arg, _ = strconv.Atoi(string(b[numStart:i]))
			}
			if i < len(b) && b[i] == ' ' {
				i++
			}
			flush()
			switch {
			case rtfSkipped[word]:
				cur.skip = true
			case word == "ansicpg" && hasArg:
				if e, _ := charset.Lookup("windows-" + strconv.Itoa(arg)); e != nil {
					enc = e
				}
			case word == "uc" && hasArg:
				cur.uc = max(arg, 0)
			case word == "u" && hasArg:
				if !cur.skip {
					r := rune(arg)
					if r < 0 {
						r += 65536
					}
					if !utf8.ValidRune(r) {
						r = utf8.RuneError
					}
					_ = out.add(string(r))
				}
				skipFallback = cur.uc
			case !cur.skip:
				if s, ok := rtfWords[word]; ok {
					_ = out.add(s)
				}
			}
		case c == '\r' || c == '\n':
			i++
		default:
			j := i
			for j < len(b) && b[j] != '\\' && b[j] != '{' && b[j] != '}' && b[j] != '\r' && b[j] != '\n' {
				j++
			}
			text := b[i:j]
			i = j
			if skipFallback > 0 {
				n := min(skipFallback, len(text))
				text, skipFallback = text[n:], skipFallback-n
			}
			if !cur.skip && len(text) > 0 {
				flush()
				_ = out.add(string(text))
			}
		}
	}
	flush()
	lines := strings.Split(out.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	res := docText{cut: out.cut}
	res.WriteString(strings.Join(lines, "\n"))
	return res.result(), nil
}
