package tokens

import (
	"io"
	"strings"
	"unicode/utf8"
)

// Sampling parameters of Estimate: texts up to estimateExact bytes are
// counted exactly; longer ones by estimateWindows evenly spaced windows of
// estimateWindow bytes, a fixed 512 KiB of work however long the text.
const (
	estimateExact   = 4 << 20
	estimateWindows = 32
	estimateWindow  = 16 << 10
)

// Estimate returns the token count of text, exactly for texts up to 4 MiB
// and by sampling beyond: it counts 32 windows of 16 KiB spread evenly over
// the text (each starting after a line break, so no word is cut) and scales
// the tokens per byte to the whole length. On source code and prose the
// estimate is within a few percent; it is deterministic.
func (e *Encoding) Estimate(text string) int {
	if len(text) <= estimateExact {
		return e.Count(text)
	}
	n, _ := e.EstimateAt(strings.NewReader(text), int64(len(text))) // a strings.Reader does not fail
	return n
}

// EstimateAt is Estimate of the size bytes r holds, reading only the
// windows it samples (everything up to 4 MiB), so a file of any length
// costs the same.
func (e *Encoding) EstimateAt(r io.ReaderAt, size int64) (int, error) {
	if size <= estimateExact {
		b, err := io.ReadAll(io.NewSectionReader(r, 0, size))
		if err != nil {
			return 0, err
		}
		return e.Count(string(b)), nil
	}
	stride := size / estimateWindows
	sampled, tokens := 0, 0
	buf := make([]byte, 1+2*(1024+utf8.UTFMax)+estimateWindow)
	for w := range int64(estimateWindows) {
		// The window as Estimate would place it in the whole text: the
		// byte before the sample point is read too, so that alignStart
		// does not take the buffer's start for the text's.
		base, i := w*stride, 0
		if w > 0 {
			base, i = base-1, 1
		}
		n, err := r.ReadAt(buf, base)
		if err != nil && err != io.EOF {
			return 0, err
		}
		text := string(buf[:n])
		start := alignStart(text, i)
		end := alignStart(text, min(start+estimateWindow, len(text)))
		if end <= start {
			continue
		}
		sampled += end - start
		tokens += e.Count(text[start:end])
	}
	if sampled == 0 {
		b, err := io.ReadAll(io.NewSectionReader(r, 0, size))
		if err != nil {
			return 0, err
		}
		return e.Count(string(b)), nil
	}
	return int(float64(tokens) * float64(size) / float64(sampled)), nil
}

// alignStart moves i forward to just after the next line break within 1 KiB,
// or else to the next character boundary.
func alignStart(text string, i int) int {
	if i >= len(text) || i == 0 {
		return i
	}
	for j := i; j < len(text) && j < i+1024; j++ {
		if text[j] == '\n' {
			return j + 1
		}
	}
	for i < len(text) && !utf8.RuneStart(text[i]) {
		i++
	}
	return i
}
