// Package vocab holds the byte-pair vocabularies of OpenAI's o200k_base and
// cl100k_base encodings, embedded in the binary in a compact form, and the
// readers and writers of that form.
//
// The source is the .tiktoken files of github.com/pkoukk/tiktoken-go-loader
// (one "base64(token) rank" line per token). Parsing 200,000 base64 lines
// into a map takes hundreds of milliseconds; the compact form ("GOPIBPE1",
// a little-endian uint32 token count, then per token in rank order one
// length byte and the token's bytes) is read in a single pass without
// copying, because ranks are implicit and tokens are addressed in place.
// `go generate` rewrites the .bin files from the loader's assets; a test
// checks that the checked-in files still match them byte for byte.
package vocab

import (
	_ "embed" // the vocabularies
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

//go:generate go run ./gen

// magic opens every file; the digit is the format version.
const magic = "GOPIBPE1"

// maxTokenLen is the longest token the format can hold (one length byte).
const maxTokenLen = 255

//go:embed o200k_base.bin
var o200kBase string

//go:embed cl100k_base.bin
var cl100kBase string

// Table is a vocabulary: token r is Data[Start[r] : Start[r]+Len(r)].
type Table struct {
	Data  string   // the compact file; tokens are slices of it
	Start []uint32 // byte offset of each token's first byte, by rank
}

// Len returns the length of token r.
func (t *Table) Len(r int) int { return int(t.Data[t.Start[r]-1]) }

// Token returns the bytes of token r.
func (t *Table) Token(r int) string {
	s := t.Start[r]
	return t.Data[s : s+uint32(t.Data[s-1])]
}

// Embedded returns the compact file of a named encoding ("o200k_base" or
// "cl100k_base").
func Embedded(name string) (string, bool) {
	switch name {
	case "o200k_base":
		return o200kBase, true
	case "cl100k_base":
		return cl100kBase, true
	}
	return "", false
}

// Parse indexes a compact file.
func Parse(data string) (*Table, error) {
	if !strings.HasPrefix(data, magic) || len(data) < len(magic)+4 {
		return nil, errors.New("vocab: not a GOPIBPE1 file")
	}
	n := binary.LittleEndian.Uint32([]byte(data[len(magic) : len(magic)+4]))
	if uint64(n) > uint64(len(data)) {
		return nil, fmt.Errorf("vocab: token count %d exceeds the file size", n)
	}
	t := &Table{Data: data, Start: make([]uint32, n)}
	pos := len(magic) + 4
	for r := range t.Start {
		if pos >= len(data) {
			return nil, fmt.Errorf("vocab: file ends at token %d of %d", r, n)
		}
		l := int(data[pos])
		if l == 0 || pos+1+l > len(data) {
			return nil, fmt.Errorf("vocab: token %d has a bad length %d at offset %d", r, l, pos)
		}
		t.Start[r] = uint32(pos + 1)
		pos += 1 + l
	}
	if pos != len(data) {
		return nil, fmt.Errorf("vocab: %d stray bytes after the last token", len(data)-pos)
	}
	return t, nil
}

// Format writes tokens, given in rank order, as a compact file.
func Format(tokens []string) ([]byte, error) {
	size := len(magic) + 4
	for _, tok := range tokens {
		size += 1 + len(tok)
	}
	out := make([]byte, 0, size)
	out = append(out, magic...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(tokens)))
	for r, tok := range tokens {
		if len(tok) == 0 || len(tok) > maxTokenLen {
			return nil, fmt.Errorf("vocab: token %d has length %d, want 1..%d", r, len(tok), maxTokenLen)
		}
		out = append(out, byte(len(tok)))
		out = append(out, tok...)
	}
	return out, nil
}

// ParseTiktoken reads a .tiktoken file ("base64(token) rank" per line) and
// returns the tokens in rank order. Ranks must be exactly 0..n-1, as they are
// for the encodings gopi ships.
func ParseTiktoken(text string) ([]string, error) {
	var tokens []string
	for lineNo, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		b64, rankText, ok := strings.Cut(line, " ")
		if !ok {
			return nil, fmt.Errorf("vocab: line %d: want \"base64 rank\", got %q", lineNo+1, line)
		}
		tok, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, fmt.Errorf("vocab: line %d: %w", lineNo+1, err)
		}
		rank, err := strconv.Atoi(rankText)
		if err != nil || rank != len(tokens) {
			return nil, fmt.Errorf("vocab: line %d: rank %q, want %d (ranks must be contiguous)", lineNo+1, rankText, len(tokens))
		}
		tokens = append(tokens, string(tok))
	}
	return tokens, nil
}
