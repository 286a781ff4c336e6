package secrets

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strings"
)

// Provider request bodies are obfuscated as decoded JSON. Every string is
// text to be searched except a short list of fields recognised by their
// place in a provider's request shape, whose bytes must reach the
// provider untouched:
//
//   - the base64 bytes of an image block: Anthropic's image source,
//     Gemini's inlineData, the data: URL of an OpenAI image part; each
//     only when its MIME type is an image type and the bytes are valid
//     base64 (text that merely looks like a data: URL is searched);
//   - the opaque reasoning a provider gave back to be replayed: an
//     Anthropic thinking block's signature and redacted_thinking data,
//     Gemini's thoughtSignature, an OpenAI reasoning item's
//     encrypted_content.
//
// Adjacent text blocks of one content list reach the model as one text,
// so a secret cut across them is found in their concatenation; the blocks
// it spans are then merged into one.

// ObfuscateJSON returns a JSON document with every secret in its strings
// (keys and values) replaced, except in image bytes and reasoning
// signatures (see above). A document that holds none is returned
// unchanged, byte for byte; one that is not a single valid JSON value is
// obfuscated as plain text.
func (o *Obfuscator) ObfuscateJSON(doc []byte) []byte {
	if o.Empty() {
		return doc
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []byte(o.Obfuscate(string(doc)))
	}
	if _, err := dec.Token(); err != io.EOF {
		return []byte(o.Obfuscate(string(doc))) // trailing data after the value
	}
	out, changed := o.payloadValue(v, hintNone)
	if !changed {
		return doc
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return []byte(o.Obfuscate(string(doc)))
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// hint is what an object's parent says about it.
type hint uint8

const (
	hintNone        hint = iota
	hintImageSource      // the source of an Anthropic image block
	hintImageURL         // the image_url object of an OpenAI chat image part
	hintInlineData       // a Gemini part's inlineData
)

// payloadValue obfuscates one value of a request body.
func (o *Obfuscator) payloadValue(v any, h hint) (any, bool) {
	switch x := v.(type) {
	case string:
		y := o.Obfuscate(x)
		return y, y != x
	case map[string]any:
		return o.payloadObject(x, h)
	case []any:
		return o.payloadArray(x)
	}
	return v, false
}

// payloadObject obfuscates an object's keys and values, leaving its
// opaque field (if it has one) alone.
func (o *Obfuscator) payloadObject(m map[string]any, h hint) (any, bool) {
	skip := opaqueField(m, h)
	var out map[string]any
	for k, e := range m {
		if k == skip {
			continue
		}
		nk := o.Obfuscate(k)
		ne, changed := o.payloadValue(e, childHint(m, k))
		if !changed && nk == k {
			continue
		}
		if out == nil {
			out = maps.Clone(m)
		}
		if nk != k {
			delete(out, k)
		}
		out[nk] = ne
	}
	if out == nil {
		return m, false
	}
	return out, true
}

// payloadArray obfuscates a list; runs of adjacent text blocks are
// searched as the one text they form.
func (o *Obfuscator) payloadArray(a []any) (any, bool) {
	var out []any
	changed := false
	for i := 0; i < len(a); {
		j := i + 1
		if _, ok := textBlock(a[i]); ok {
			for j < len(a) && sameTextKind(a[i], a[j]) {
				j++
			}
		}
		run, runChanged := o.textRun(a[i:j])
		if runChanged && !changed {
			changed = true
			out = slices.Clone(a[:i])
		}
		if changed {
			out = append(out, run...)
		}
		i = j
	}
	if !changed {
		return a, false
	}
	return out, true
}

// textRun obfuscates a run of elements: one element of any kind, or
// adjacent text blocks of one kind. A secret that crosses the boundary
// between two blocks merges them.
func (o *Obfuscator) textRun(run []any) ([]any, bool) {
	if len(run) == 1 {
		v, changed := o.payloadValue(run[0], hintNone)
		return []any{v}, changed
	}
	// Group the blocks: a block joins the group before it when the group's
	// text and its own hide a secret only together.
	type group struct {
		first, last int
		text        string
	}
	var groups []group
	for i, b := range run {
		t, _ := textBlock(b)
		if n := len(groups); n > 0 {
			g := &groups[n-1]
			if o.Obfuscate(g.text+t) != o.Obfuscate(g.text)+o.Obfuscate(t) {
				g.last, g.text = i, g.text+t
				continue
			}
		}
		groups = append(groups, group{first: i, last: i, text: t})
	}
	out := make([]any, 0, len(groups))
	changed := len(groups) < len(run)
	for _, g := range groups {
		if g.first == g.last {
			v, c := o.payloadValue(run[g.first], hintNone)
			changed = changed || c
			out = append(out, v)
			continue
		}
		// The merged block keeps the last block's other fields (a cache
		// marker sits on the last block of a list).
		last := run[g.last].(map[string]any)
		merged := maps.Clone(last)
		merged["text"] = g.text
		v, _ := o.payloadObject(merged, hintNone)
		out = append(out, v)
	}
	return out, changed
}

// textBlock returns the text of a plain text block: {"type": "text" |
// "input_text" | "output_text", "text": …} (other fields allowed) or a
// Gemini part holding only "text".
func textBlock(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	t, ok := m["text"].(string)
	if !ok {
		return "", false
	}
	switch m["type"] {
	case "text", "input_text", "output_text":
		return t, true
	case nil:
		return t, len(m) == 1
	}
	return "", false
}

// sameTextKind reports whether b is a text block of a's kind.
func sameTextKind(a, b any) bool {
	if _, ok := textBlock(b); !ok {
		return false
	}
	return a.(map[string]any)["type"] == b.(map[string]any)["type"]
}

// childHint is what object m says about its field k.
func childHint(m map[string]any, k string) hint {
	switch {
	case k == "source" && m["type"] == "image":
		return hintImageSource
	case k == "image_url" && m["type"] == "image_url":
		return hintImageURL
	case k == "inlineData" || k == "inline_data":
		return hintInlineData
	}
	return hintNone
}

// opaqueField names the field of m that must be sent untouched, or "".
func opaqueField(m map[string]any, h hint) string {
	str := func(k string) string { s, _ := m[k].(string); return s }
	only := func(keys ...string) bool {
		for k := range m {
			if !slices.Contains(keys, k) {
				return false
			}
		}
		return true
	}
	switch h {
	case hintImageSource:
		if str("type") == "base64" && isImageType(str("media_type")) && isBase64(str("data")) {
			return "data"
		}
	case hintImageURL:
		if isImageDataURL(str("url")) {
			return "url"
		}
	case hintInlineData:
		mime := str("mimeType")
		if mime == "" {
			mime = str("mime_type")
		}
		if isImageType(mime) && isBase64(str("data")) {
			return "data"
		}
	}
	switch m["type"] {
	case "input_image":
		if isImageDataURL(str("image_url")) {
			return "image_url"
		}
	case "thinking":
		if _, ok := m["signature"].(string); ok && only("type", "thinking", "signature") {
			return "signature"
		}
	case "redacted_thinking":
		if _, ok := m["data"].(string); ok && only("type", "data") {
			return "data"
		}
	case "reasoning":
		if _, ok := m["encrypted_content"].(string); ok {
			return "encrypted_content"
		}
	case nil:
		if _, ok := m["thoughtSignature"].(string); ok && only("text", "thought", "thoughtSignature", "functionCall") {
			return "thoughtSignature"
		}
	}
	return ""
}

// isImageType reports whether a MIME type names an image.
func isImageType(mime string) bool {
	sub, ok := strings.CutPrefix(mime, "image/")
	if !ok || sub == "" {
		return false
	}
	for _, c := range sub {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-') {
			return false
		}
	}
	return true
}

// isImageDataURL reports whether s is "data:<image type>;base64,<base64>".
func isImageDataURL(s string) bool {
	rest, ok := strings.CutPrefix(s, "data:")
	if !ok {
		return false
	}
	mime, data, ok := strings.Cut(rest, ";base64,")
	return ok && isImageType(mime) && isBase64(data)
}

// isBase64 reports whether s is non-empty standard base64 (padded, no
// white space): what gopi and the providers send as image bytes.
func isBase64(s string) bool {
	if s == "" || len(s)%4 != 0 {
		return false
	}
	body := strings.TrimRight(s, "=")
	if len(s)-len(body) > 2 {
		return false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
			return false
		}
	}
	return true
}
