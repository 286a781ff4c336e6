package htmlexport

import (
	"bufio"
	"strconv"
	"unicode/utf8"
)

// out is the page's writer: raw markup and escaped text, with the first
// write error latched (later writes do nothing).
type out struct {
	w   *bufio.Writer
	err error
}

// raw writes markup as it is.
func (o *out) raw(s string) {
	if o.err == nil {
		_, o.err = o.w.WriteString(s)
	}
}

// rawBytes writes markup held in a byte slice.
func (o *out) rawBytes(b []byte) {
	if o.err == nil {
		_, o.err = o.w.Write(b)
	}
}

// text writes s escaped for element content and attribute values (both
// quote styles). Invalid UTF-8 becomes U+FFFD and NUL is dropped, so the
// page stays well-formed whatever a tool printed.
func (o *out) text(s string) {
	if o.err != nil {
		return
	}
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		var rep string
		switch {
		case c == '&':
			rep = "&amp;"
		case c == '<':
			rep = "&lt;"
		case c == '>':
			rep = "&gt;"
		case c == '"':
			rep = "&#34;"
		case c == '\'':
			rep = "&#39;"
		case c == 0:
			rep = ""
		case c < utf8.RuneSelf:
			i++
			continue
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || n != 1 {
				i += n
				continue
			}
			rep = "\uFFFD"
		}
		o.w.WriteString(s[start:i])
		o.w.WriteString(rep)
		i++
		start = i
	}
	_, o.err = o.w.WriteString(s[start:])
}

// int writes a decimal number.
func (o *out) int(n int) { o.raw(strconv.Itoa(n)) }

// attr writes ` name="value"` with the value escaped.
func (o *out) attr(name, value string) {
	o.raw(" " + name + `="`)
	o.text(value)
	o.raw(`"`)
}

// elem writes <tag class="class">text</tag>.
func (o *out) elem(tag, class, text string) {
	o.raw("<" + tag)
	if class != "" {
		o.attr("class", class)
	}
	o.raw(">")
	o.text(text)
	o.raw("</" + tag + ">")
}
