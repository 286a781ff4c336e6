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
	// Most text is valid UTF-8: then only the ASCII specials need a look,
	// one table lookup a byte.
	table := &escValid
	if !utf8.ValidString(s) {
		table = &escInvalid
	}
	start := 0
	for i := 0; i < len(s); i++ {
		k := table[s[i]]
		if k == 0 {
			continue
		}
		rep := "\uFFFD"
		if k != escNonASCII {
			rep = escapes[k]
		} else if r, size := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || size != 1 {
			i += size - 1
			continue
		}
		o.w.WriteString(s[start:i])
		o.w.WriteString(rep)
		start = i + 1
	}
	_, o.err = o.w.WriteString(s[start:])
}

// escapes are the replacements text makes, by table value.
var escapes = [...]string{1: "&amp;", 2: "&lt;", 3: "&gt;", 4: "&#34;", 5: "&#39;", 6: ""}

// escNonASCII marks, in escInvalid, bytes that start or continue a
// multi-byte sequence: they are checked one rune at a time.
const escNonASCII = 7

// escValid maps a byte of valid UTF-8 text to its replacement (0: none);
// escInvalid also flags every non-ASCII byte.
var escValid, escInvalid = func() (v, inv [256]uint8) {
	for c, k := range map[byte]uint8{'&': 1, '<': 2, '>': 3, '"': 4, '\'': 5, 0: 6} {
		v[c], inv[c] = k, k
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		inv[c] = escNonASCII
	}
	return v, inv
}()

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
