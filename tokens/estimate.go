package tokens

import "unicode/utf8"

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
	stride := len(text) / estimateWindows
	sampled, tokens := 0, 0
	for w := range estimateWindows {
		start := alignStart(text, w*stride)
		end := alignStart(text, min(start+estimateWindow, len(text)))
		if end <= start {
			continue
		}
		sampled += end - start
		tokens += e.Count(text[start:end])
	}
	if sampled == 0 {
		return e.Count(text)
	}
	return int(float64(tokens) * float64(len(text)) / float64(sampled))
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
