package anthropic

import (
	"bytes"
	"unicode/utf8"
)

// Most events of a streamed reply are one text (or thinking) delta, and
// the API writes them in one fixed shape. fastDelta reads that shape by
// hand instead of running the general JSON decoder on every chunk; any
// other spelling (other key order, spaces, \u escapes, bytes the decoder
// would replace or refuse) makes it decline, and the caller uses
// json.Unmarshal as before. FuzzFastDeltaMatchesUnmarshal holds it equal to
// the general decoder.

var (
	fastDeltaHead = []byte(`{"type":"content_block_delta","index":`)
	fastTextMid   = []byte(`,"delta":{"type":"text_delta","text":"`)
	fastThinkMid  = []byte(`,"delta":{"type":"thinking_delta","thinking":"`)
	fastDeltaTail = []byte(`}}`)

	// The same event with its keys sorted, as encoders of maps write it
	// (gopi's mock server among them).
	sortedTextHead  = []byte(`{"delta":{"text":"`)
	sortedThinkHead = []byte(`{"delta":{"thinking":"`)
	sortedTextMid   = []byte(`,"type":"text_delta"},"index":`)
	sortedThinkMid  = []byte(`,"type":"thinking_delta"},"index":`)
	sortedTail      = []byte(`,"type":"content_block_delta"}`)
)

// fastDelta decodes data when it is a text or thinking delta in the
// API's usual spelling or with sorted keys. thinking tells which; ok false
// means "not this shape: decode it the general way".
func fastDelta(data []byte) (index int, text string, thinking bool, ok bool) {
	if rest, found := bytes.CutPrefix(data, fastDeltaHead); found {
		return apiOrderDelta(rest)
	}
	rest, found := bytes.CutPrefix(data, sortedTextHead)
	mid := sortedTextMid
	if !found {
		if rest, found = bytes.CutPrefix(data, sortedThinkHead); !found {
			return 0, "", false, false
		}
		mid, thinking = sortedThinkMid, true
	}
	text, rest, ok = fastString(rest)
	if !ok {
		return 0, "", false, false
	}
	if rest, found = bytes.CutPrefix(rest, mid); !found {
		return 0, "", false, false
	}
	index, rest, ok = fastIndex(rest)
	if !ok || !bytes.Equal(rest, sortedTail) {
		return 0, "", false, false
	}
	return index, text, thinking, true
}

// apiOrderDelta reads the rest of a delta in the API's key order, after
// its head.
func apiOrderDelta(rest []byte) (index int, text string, thinking bool, ok bool) {
	index, rest, ok = fastIndex(rest)
	if !ok {
		return 0, "", false, false
	}
	if r, found := bytes.CutPrefix(rest, fastTextMid); found {
		rest = r
	} else if r, found := bytes.CutPrefix(rest, fastThinkMid); found {
		rest, thinking = r, true
	} else {
		return 0, "", false, false
	}
	text, rest, ok = fastString(rest)
	if !ok || !bytes.Equal(rest, fastDeltaTail) {
		return 0, "", false, false
	}
	return index, text, thinking, true
}

// fastIndex reads a small non-negative JSON integer (no leading zero, at
// most nine digits so that it cannot overflow).
func fastIndex(b []byte) (int, []byte, bool) {
	n, i := 0, 0
	for i < len(b) && i < 10 && b[i] >= '0' && b[i] <= '9' {
		n = n*10 + int(b[i]-'0')
		i++
	}
	if i == 0 || i > 9 || (i > 1 && b[0] == '0') {
		return 0, b, false
	}
	return n, b[i:], true
}

// fastString reads the body of a JSON string up to and including its
// closing quote. It handles the one-character escapes; a \u escape, a
// control character or invalid UTF-8 makes it decline.
func fastString(b []byte) (string, []byte, bool) {
	end := bytes.IndexByte(b, '"')
	if end < 0 {
		return "", b, false
	}
	if bytes.IndexByte(b[:end], '\\') < 0 { // no escapes: the common chunk
		if !plainValid(b[:end]) {
			return "", b, false
		}
		return string(b[:end]), b[end+1:], true
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			if !utf8.Valid(out) { // raw control characters were refused below
				return "", b, false
			}
			return string(out), b[i+1:], true
		case c == '\\':
			if i+1 >= len(b) {
				return "", b, false
			}
			i++
			switch b[i] {
			case '"', '\\', '/':
				out = append(out, b[i])
			case 'n':
				out = append(out, '\n')
			case 't':
				out = append(out, '\t')
			case 'r':
				out = append(out, '\r')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			default: // \u and invalid escapes: the general decoder's business
				return "", b, false
			}
		case c < 0x20:
			return "", b, false
		default:
			out = append(out, c)
		}
	}
	return "", b, false
}

// plainValid reports whether a raw string body decodes to itself: no
// control characters (the decoder refuses them) and valid UTF-8 (the
// decoder would replace invalid bytes).
func plainValid(s []byte) bool {
	high := false
	for _, c := range s {
		if c < 0x20 {
			return false
		}
		if c >= utf8.RuneSelf {
			high = true
		}
	}
	return !high || utf8.Valid(s)
}
