package session

import (
	"fmt"
	"strconv"
	"strings"
)

// Size controls applied to every entry before it is written, as omp
// applies them (so files stay loadable by both and of bounded size):
const (
	// MaxPersistChars caps any string, counted in UTF-16 code units as
	// JavaScript counts a string's length.
	MaxPersistChars = 500_000
	// TruncationNotice ends a string cut to MaxPersistChars (the notice
	// included).
	TruncationNotice = "\n\n[Session persistence truncated large content]"
	// BlobThreshold is the length of base64 image data from which an image
	// block is moved to the blob store.
	BlobThreshold = 1024
)

// transientKeys are members never persisted: streaming accumulators whose
// content is elsewhere (tool-call arguments, saved subprocess events).
var transientKeys = map[string]bool{"partialJson": true, "jsonlEvents": true}

// signatureKeys hold provider signatures: a cut signature is invalid, so an
// oversized one is emptied instead.
var signatureKeys = map[string]bool{"thinkingSignature": true, "thoughtSignature": true, "textSignature": true}

// prepare returns the persisted form of an encoded entry: strings over
// MaxPersistChars cut with TruncationNotice (signatures emptied), transient
// members dropped, a "lineCount" beside a cut string "content" recounted,
// image blocks in "content" arrays with at least BlobThreshold characters
// of base64 moved to the blob store (data becomes blob:sha256:<hash>), and
// provider image data URLs ("image_url") moved likewise. With a nil store,
// images stay inline. Strings are re-encoded as JSON.stringify writes them.
func prepare(encoded []byte, blobs *BlobStore) ([]byte, error) {
	root, err := parseTree(encoded)
	if err != nil {
		return nil, fmt.Errorf("prepare entry: %w", err)
	}
	p := preparer{blobs: blobs}
	p.walk(root, "")
	if p.err != nil {
		return nil, p.err
	}
	return root.appendTo(make([]byte, 0, len(encoded))), nil
}

type preparer struct {
	blobs *BlobStore
	err   error
}

// walk applies the size controls to v, found under member key, and
// reports whether it changed anything.
func (p *preparer) walk(v *jvalue, key string) bool {
	switch v.kind {
	case '"':
		return p.str(v, key)
	case '[':
		changed := false
		for _, el := range v.vals {
			if key == "content" && isImageBlock(el) {
				if p.externalizeImage(el) {
					changed = true
					continue
				}
			}
			if p.walk(el, key) {
				changed = true
			}
		}
		return changed
	case '{':
		changed := false
		keys, vals := v.keys[:0:0], v.vals[:0:0]
		for i, k := range v.keys {
			if transientKeys[k] {
				changed = true
				continue
			}
			if p.walk(v.vals[i], k) {
				changed = true
			}
			keys, vals = append(keys, k), append(vals, v.vals[i])
		}
		v.keys, v.vals = keys, vals
		if changed {
			if c, lc := v.get("content"), v.get("lineCount"); c != nil && c.kind == '"' && lc != nil && isNumber(lc.raw) {
				lc.raw = []byte(strconv.Itoa(strings.Count(c.str, "\n") + 1))
			}
		}
		return changed
	}
	return false
}

func (p *preparer) str(v *jvalue, key string) bool {
	if key == "image_url" && isImageDataURL(v.str) && p.blobs != nil {
		hash, err := p.blobs.Put([]byte(v.str))
		if err != nil {
			p.fail(err)
			return false
		}
		v.str = BlobRef(hash)
		return true
	}
	if len(v.str) <= MaxPersistChars || utf16Len(v.str) <= MaxPersistChars {
		return false
	}
	if signatureKeys[key] {
		v.str = ""
		return true
	}
	v.str = utf16Prefix(v.str, MaxPersistChars-len(TruncationNotice)) + TruncationNotice
	return true
}

// externalizeImage moves an image block's data to the blob store when it
// is large enough; it reports whether it did.
func (p *preparer) externalizeImage(el *jvalue) bool {
	data := el.get("data")
	if p.blobs == nil || strings.HasPrefix(data.str, BlobPrefix) || len(data.str) < BlobThreshold {
		return false
	}
	bin, ok := decodeBase64(data.str)
	if !ok {
		return false
	}
	hash, err := p.blobs.Put(bin)
	if err != nil {
		p.fail(err)
		return false
	}
	data.str = BlobRef(hash)
	return true
}

func (p *preparer) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

func isImageBlock(v *jvalue) bool {
	t, d := v.get("type"), v.get("data")
	return t != nil && t.kind == '"' && t.str == "image" && d != nil && d.kind == '"'
}

func isImageDataURL(s string) bool {
	return strings.HasPrefix(s, "data:image/") && strings.Contains(s, ";base64,")
}

func isNumber(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}
