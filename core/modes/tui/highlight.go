package tui

import (
	"strings"
	"unicode/utf8"
)

// A small lexical highlighter for code blocks: comments, strings, numbers
// and keywords of the languages an agent shows most, picked by the fence's
// language name. It knows no grammar; a language it does not know gets
// strings, numbers and the common comment styles.

// langSyntax describes what the highlighter colours in a language.
type langSyntax struct {
	line      []string // line comment starts
	block     [2]string
	quotes    string // string delimiters
	keywords  map[string]bool
	constants map[string]bool
}

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

var (
	cStyle   = [2]string{"/*", "*/"}
	syntaxes = map[string]*langSyntax{
		"go": {line: []string{"//"}, block: cStyle, quotes: "\"'`",
			keywords:  words("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var"),
			constants: words("true false nil iota")},
		"python": {line: []string{"#"}, quotes: "\"'",
			keywords:  words("and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case"),
			constants: words("True False None self")},
		"javascript": {line: []string{"//"}, block: cStyle, quotes: "\"'`",
			keywords:  words("async await break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return static super switch this throw try typeof var void while with yield type interface enum implements private public protected readonly as"),
			constants: words("true false null undefined NaN")},
		"rust": {line: []string{"//"}, block: cStyle, quotes: "\"",
			keywords:  words("as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while"),
			constants: words("true false None Some Ok Err")},
		"c": {line: []string{"//"}, block: cStyle, quotes: "\"'",
			keywords:  words("auto break case char const continue default do double else enum extern float for goto if inline int long register return short signed sizeof static struct switch typedef union unsigned void volatile while class namespace template typename public private protected virtual new delete using bool"),
			constants: words("true false NULL nullptr")},
		"java": {line: []string{"//"}, block: cStyle, quotes: "\"'",
			keywords:  words("abstract boolean break byte case catch char class const continue default do double else enum extends final finally float for if implements import instanceof int interface long new package private protected public return short static super switch this throw throws try void volatile while var fun val when object"),
			constants: words("true false null")},
		"shell": {line: []string{"#"}, quotes: "\"'",
			keywords:  words("if then else elif fi for while until do done case esac in function return local export set unset echo cd"),
			constants: words("true false")},
		"json": {quotes: "\"", constants: words("true false null")},
		"yaml": {line: []string{"#"}, quotes: "\"'", constants: words("true false null yes no")},
		"sql": {line: []string{"--"}, block: cStyle, quotes: "'\"",
			keywords: words("select from where insert into values update set delete create table drop alter join left right inner outer on group by order having limit and or not null as distinct SELECT FROM WHERE INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE DROP ALTER JOIN LEFT RIGHT INNER OUTER ON GROUP BY ORDER HAVING LIMIT AND OR NOT NULL AS DISTINCT")},
	}
	aliases = map[string]string{
		"golang": "go", "py": "python", "python3": "python", "js": "javascript", "jsx": "javascript", "ts": "javascript",
		"tsx": "javascript", "typescript": "javascript", "mjs": "javascript", "rs": "rust", "h": "c", "cpp": "c", "c++": "c",
		"cc": "c", "hpp": "c", "cs": "java", "csharp": "java", "kotlin": "java", "kt": "java", "swift": "java",
		"sh": "shell", "bash": "shell", "zsh": "shell", "console": "shell", "yml": "yaml", "toml": "yaml",
	}
	generic = &langSyntax{line: []string{"//", "#"}, block: cStyle, quotes: "\"'"}
)

// highlight colours code line by line.
func highlight(th theme, lang, code string) []string {
	lines := strings.Split(code, "\n")
	if th.plain {
		return lines
	}
	lang = strings.ToLower(strings.TrimSpace(lang))
	if a, ok := aliases[lang]; ok {
		lang = a
	}
	syn := syntaxes[lang]
	if syn == nil {
		syn = generic
	}
	h := highlighter{th: th, syn: syn}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = h.line(l)
	}
	return out
}

// highlighter carries an open block comment or string across lines.
type highlighter struct {
	th      theme
	syn     *langSyntax
	inBlock bool
	inQuote byte // an open multi-line string's delimiter (backquote)
}

func (h *highlighter) line(l string) string {
	var b strings.Builder
	i := 0
	emit := func(st interface{ Render(...string) string }, s string) { b.WriteString(st.Render(s)) }
	for i < len(l) {
		if h.inBlock {
			end := strings.Index(l[i:], h.syn.block[1])
			if end < 0 {
				emit(h.th.dim, l[i:])
				return b.String()
			}
			emit(h.th.dim, l[i:i+end+len(h.syn.block[1])])
			i += end + len(h.syn.block[1])
			h.inBlock = false
			continue
		}
		if h.inQuote != 0 {
			end := strings.IndexByte(l[i:], h.inQuote)
			if end < 0 {
				emit(h.th.str, l[i:])
				return b.String()
			}
			emit(h.th.str, l[i:i+end+1])
			i += end + 1
			h.inQuote = 0
			continue
		}
		rest := l[i:]
		if c := h.commentStart(rest); c != "" {
			if c == h.syn.block[0] {
				h.inBlock = true
				emit(h.th.dim, c)
				i += len(c)
				continue
			}
			emit(h.th.dim, rest)
			return b.String()
		}
		c := l[i]
		switch {
		case strings.IndexByte(h.syn.quotes, c) >= 0:
			j := i + 1
			for j < len(l) && l[j] != c {
				if l[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			if j >= len(l) {
				if c == '`' {
					h.inQuote = '`'
				}
				emit(h.th.str, l[i:])
				return b.String()
			}
			emit(h.th.str, l[i:j+1])
			i = j + 1
		case c >= '0' && c <= '9':
			j := i
			for j < len(l) && (isWordByte(l[j]) || l[j] == '.') {
				j++
			}
			emit(h.th.num, l[i:j])
			i = j
		case isWordByte(c):
			j := i
			for j < len(l) && isWordByte(l[j]) {
				j++
			}
			w := l[i:j]
			switch {
			case h.syn.keywords[w]:
				emit(h.th.keyword, w)
			case h.syn.constants[w]:
				emit(h.th.num, w)
			default:
				b.WriteString(w)
			}
			i = j
		default:
			_, n := utf8.DecodeRuneInString(l[i:])
			b.WriteString(l[i : i+n])
			i += n
		}
	}
	return b.String()
}

// commentStart returns the comment opener s starts with, "" when none.
func (h *highlighter) commentStart(s string) string {
	for _, c := range h.syn.line {
		if strings.HasPrefix(s, c) {
			return c
		}
	}
	if h.syn.block[0] != "" && strings.HasPrefix(s, h.syn.block[0]) {
		return h.syn.block[0]
	}
	return ""
}

func isWordByte(c byte) bool {
	// Bytes of multi-byte characters count as word bytes: identifiers in
	// other scripts stay whole and no character is split.
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf
}
