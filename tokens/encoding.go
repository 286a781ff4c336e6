// Package tokens counts and encodes text with OpenAI's byte-pair encodings
// o200k_base (GPT-4o, GPT-4.1, GPT-5, o-series) and cl100k_base (GPT-4,
// GPT-3.5), exactly as tiktoken does, at native speed and fully offline.
//
// Encoding is two steps. A pre-tokenizer splits the text into pieces
// (words with their leading space, runs of up to three digits, punctuation,
// whitespace); package pretokenize does this with hand-written scanners
// equivalent to each encoding's split regex. Each piece is then looked up in
// the vocabulary; most pieces are one token, the rest are merged byte pair
// by byte pair (package bpe). The vocabularies are embedded in the binary
// with their lookup tables, built when gopi is built (package vocab's
// go generate step), so loading an encoding reads them in place and costs
// microseconds, not the tens of milliseconds building them would.
//
// The reference is github.com/pkoukk/tiktoken-go, which runs the split
// regexes with regexp2 over Go's unicode tables: counts and ids are
// identical to its EncodeOrdinary on any input (tests and a fuzz target
// compare them). "Any input" includes invalid UTF-8: tiktoken-go tokenizes
// []rune(text), so each invalid byte becomes U+FFFD, and so it does here.
// The Rust tiktoken accepts only valid text, and differs from tiktoken-go
// in two corners we follow tiktoken-go on: its case-insensitive
// contractions also accept the long s (`'ſ`), and its Unicode tables may be
// a version apart from Go's for newly assigned characters.
//
// Special tokens such as <|endoftext|> are not recognised in the text: they
// are encoded as the ordinary characters they consist of, as tiktoken's
// encode_ordinary does, which is what counting a transcript needs.
package tokens

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/gopi-agent/gopi/tokens/internal/bpe"
	"github.com/gopi-agent/gopi/tokens/internal/pretokenize"
	"github.com/gopi-agent/gopi/tokens/internal/vocab"
)

// Names of the supported encodings.
const (
	O200kBase  = "o200k_base"
	Cl100kBase = "cl100k_base"
)

// Encoding is a loaded byte-pair encoding. It is safe for concurrent use.
type Encoding struct {
	name     string
	vocab    *bpe.Vocab
	batch    pretokenize.Batch
	specials map[int]string  // special token ids, for Decode
	idle     chan *bpe.Cache // piece caches between calls (see getCache)
}

// spec describes how to build an encoding.
type spec struct {
	batch    pretokenize.Batch
	specials map[int]string
}

var specs = map[string]spec{
	O200kBase: {pretokenize.O200kBatch, map[int]string{199999: "<|endoftext|>", 200018: "<|endofprompt|>"}},
	Cl100kBase: {pretokenize.Cl100kBatch, map[int]string{
		100257: "<|endoftext|>", 100258: "<|fim_prefix|>", 100259: "<|fim_middle|>",
		100260: "<|fim_suffix|>", 100276: "<|endofprompt|>",
	}},
}

var (
	loadMu sync.Mutex
	loaded = map[string]*Encoding{}
)

// Names returns the names of the supported encodings, sorted.
func Names() []string {
	names := make([]string, 0, len(specs))
	for name := range specs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Get returns the named encoding, loading it on first use.
func Get(name string) (*Encoding, error) {
	loadMu.Lock()
	defer loadMu.Unlock()
	if e := loaded[name]; e != nil {
		return e, nil
	}
	e, err := load(name)
	if err != nil {
		return nil, err
	}
	loaded[name] = e
	return e, nil
}

// load builds an encoding from its embedded vocabulary, uncached.
func load(name string) (*Encoding, error) {
	sp, ok := specs[name]
	data, embedded := vocab.Embedded(name)
	index, indexed := vocab.EmbeddedIndex(name)
	if !ok || !embedded || !indexed {
		return nil, fmt.Errorf("unknown encoding %q; use one of %s", name, strings.Join(Names(), ", "))
	}
	v, err := bpe.Open(data, index)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", name, err)
	}
	return &Encoding{name: name, vocab: v, batch: sp.batch, specials: sp.specials, idle: make(chan *bpe.Cache, maxIdleCaches)}, nil
}

// Name returns the encoding's name, e.g. "o200k_base".
func (e *Encoding) Name() string { return e.name }

// Count returns the number of tokens of text.
func (e *Encoding) Count(text string) int {
	text = validText(text)
	c := e.getCache()
	defer e.putCache(c)
	var ends [pieceBatch]int
	n := 0
	for i := 0; i < len(text); {
		k := e.batch(text, i, ends[:])
		n += e.vocab.CountPieces(text, i, ends[:k], c)
		i = ends[k-1]
	}
	return n
}

// pieceBatch is how many piece ends the splitter hands over at a time.
const pieceBatch = 256

// Encode returns the token ids of text.
func (e *Encoding) Encode(text string) []int {
	return e.AppendEncode(make([]int, 0, len(text)/4+1), text)
}

// AppendEncode appends the token ids of text to dst.
func (e *Encoding) AppendEncode(dst []int, text string) []int {
	text = validText(text)
	c := e.getCache()
	defer e.putCache(c)
	var ends [pieceBatch]int
	for i := 0; i < len(text); {
		k := e.batch(text, i, ends[:])
		for _, j := range ends[:k] {
			dst = e.vocab.AppendCached(dst, text[i:j], c)
			i = j
		}
	}
	return dst
}

// maxIdleCaches bounds the caches an encoding keeps between calls (each is
// about 1.3 MB plus up to 2 MB of arena); calls beyond it in parallel get a
// fresh one.
const maxIdleCaches = 4

// getCache takes an idle piece cache, or makes one. The idle caches live in
// a channel rather than a sync.Pool so that garbage collections do not empty
// them: a warm cache is what makes counting many small messages fast.
func (e *Encoding) getCache() *bpe.Cache {
	select {
	case c := <-e.idle:
		return c
	default:
		return bpe.NewCache()
	}
}

// putCache returns a cache to the idle set, or drops it when that is full.
func (e *Encoding) putCache(c *bpe.Cache) {
	select {
	case e.idle <- c:
	default:
	}
}

// resetCaches empties the idle caches, so a benchmark can time cold calls.
func (e *Encoding) resetCaches() {
	for range len(e.idle) {
		select {
		case c := <-e.idle:
			c.Reset()
			defer e.putCache(c)
		default:
		}
	}
}

// Decode returns the bytes of tokens, which are not always valid UTF-8 on
// their own (a character may span tokens). It fails on an unknown id.
func (e *Encoding) Decode(tokens []int) (string, error) {
	var b []byte
	for _, t := range tokens {
		switch {
		case t >= 0 && t < e.vocab.Len():
			b = append(b, e.vocab.Token(t)...)
		case e.specials[t] != "":
			b = append(b, e.specials[t]...)
		default:
			return "", fmt.Errorf("decode: %d is not a token of %s", t, e.name)
		}
	}
	return string(b), nil
}

// validText returns text with each invalid UTF-8 byte replaced by U+FFFD,
// the way []rune conversion reads it; valid text is returned as is.
func validText(text string) string {
	if utf8.ValidString(text) {
		return text
	}
	return string([]rune(text))
}

// readBlock is how much CountReader reads at a time.
const readBlock = 1 << 20

// giantPiece is the length past which CountReader counts a piece that has
// not ended yet window by window instead of keeping it whole.
const giantPiece = 4 * bpe.MaxMergeWindow

// CountReader returns the number of tokens of everything r delivers and its
// size in bytes, reading it a block at a time: memory stays at a few
// blocks whatever the size (a file of gigabytes, a run of one character
// of any length). The count is Count of the whole text: text is counted
// up to the last few pieces of what has been read, which more input could
// still extend, and those are read again with the next block.
func (e *Encoding) CountReader(ctx context.Context, r io.Reader) (count int, size int64, err error) {
	return e.countReader(ctx, r, readBlock)
}

func (e *Encoding) countReader(ctx context.Context, r io.Reader, block int) (count int, size int64, err error) {
	c := e.getCache()
	defer e.putCache(c)
	step := min(block, smallFileBlock(r, block))
	// buf holds the carry (text read but not counted yet, valid UTF-8),
	// then what the reads since added; each read appends to it, and after
	// counting the carry moves to its start: one buffer for the whole
	// input, and the text is counted where it was read.
	buf := make([]byte, 0, 2*step)
	var ends [pieceBatch]int
	var pieceEnds []int
	for {
		if err := ctx.Err(); err != nil {
			return 0, size, err
		}
		var n int
		var eof bool
		var rerr error
		buf, n, eof, rerr = readMore(r, buf, step)
		size += int64(n)
		if rerr != nil {
			return 0, size, rerr
		}
		// An incomplete UTF-8 sequence at the end waits for the next read.
		complete := len(buf)
		if !eof {
			complete = completeUTF8(buf)
		}
		// The carry is valid already, so validText changes only what
		// was read since; the view is not used after buf changes.
		text := validText(unsafe.String(unsafe.SliceData(buf), complete))
		// text[:upto] is counted; pieceEnds are the ends of the pieces
		// after it, counted whenever there are flushAt of them but for
		// the last keep, which stay uncounted unless the input has
		// ended: the last pieces of a block could still grow.
		const keep, flushAt = 8, 4096
		upto := 0
		pieceEnds = pieceEnds[:0]
		for i := 0; i < len(text); {
			k := e.batch(text, i, ends[:])
			pieceEnds = append(pieceEnds, ends[:k]...)
			i = ends[k-1]
			if len(pieceEnds) >= flushAt {
				m := len(pieceEnds) - keep
				count += e.vocab.CountPieces(text, upto, pieceEnds[:m], c)
				upto = pieceEnds[m-1]
				pieceEnds = append(pieceEnds[:0], pieceEnds[m:]...)
			}
		}
		m := len(pieceEnds)
		if !eof {
			m = max(m-keep, 0)
		}
		if m > 0 {
			count += e.vocab.CountPieces(text, upto, pieceEnds[:m], c)
			upto = pieceEnds[m-1]
		}
		if eof {
			return count, size, nil
		}
		carry := text[upto:]
		// A last piece longer than a few merge windows (a run of one
		// character) is counted as far as its leading windows go, which
		// no later text changes; the rest of it starts the carry, as the
		// next window of that piece would start.
		if n := len(pieceEnds); n > 0 {
			lastStart := 0
			if n >= 2 {
				lastStart = pieceEnds[n-2]
			}
			if pieceEnds[n-1]-lastStart > giantPiece {
				if lastStart > upto {
					count += e.vocab.CountPieces(text, upto, pieceEnds[m:n-1], c)
				}
				k, used := e.vocab.CountLeading(text[lastStart:])
				count += k
				carry = text[lastStart+used:]
			}
		}
		// The carry, then the incomplete sequence, move to the front
		// (append moves overlapping bytes correctly).
		var pending [utf8.UTFMax]byte
		np := copy(pending[:], buf[complete:])
		buf = append(append(buf[:0], carry...), pending[:np]...)
	}
}

// completeUTF8 returns the length of b without an incomplete UTF-8
// sequence at its end.
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// readMore appends up to step bytes of r to buf, growing it when it has
// less room, and returns it with the number of bytes read; eof is true
// when r ended (err is nil then), err any other read error.
func readMore(r io.Reader, buf []byte, step int) (out []byte, n int, eof bool, err error) {
	if cap(buf)-len(buf) < step {
		buf = append(make([]byte, 0, 2*len(buf)+step), buf...)
	}
	n, err = io.ReadFull(r, buf[len(buf):len(buf)+step])
	buf = buf[:len(buf)+n]
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return buf, n, true, nil
	}
	return buf, n, false, err
}
