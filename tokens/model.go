package tokens

import "strings"

// ModelEncoding says how to count tokens for a model.
type ModelEncoding struct {
	Encoding string  // the encoding to count with
	Ratio    float64 // multiply counts by this; 1 for an exact count
	Exact    bool    // the model really uses Encoding (an OpenAI model)
	Guessed  bool    // the id was not recognised; Ratio is the generic assumption
}

// Ratios for models whose tokenizers gopi does not ship. They are
// assumptions, chosen to over-count a little: a compaction that starts a
// little early is harmless, a context overflow is not. Use them for
// thresholds and displays, never for billing.
const (
	// anthropicRatio: Claude's tokenizer is not public; its counts for
	// English and code run above o200k_base's, so 1.2.
	anthropicRatio = 1.2
	// googleRatio: Gemini's 256k SentencePiece vocabulary is as large as
	// o200k_base's, so about the same count, plus a margin.
	googleRatio = 1.05
	// otherRatio: open-weight models (Llama, Qwen, Mistral, DeepSeek, …) use
	// 100k–150k vocabularies, between cl100k_base and o200k_base.
	otherRatio = 1.1
)

// ForModel returns how to count tokens for a model, given as an id such as
// "gpt-4o-mini", "claude-sonnet-4-5" or "openrouter/openai/gpt-4.1"
// (everything up to the last '/' is ignored). OpenAI models are matched by
// family: o200k_base for GPT-4o, GPT-4.1, GPT-4.5, GPT-5, the o-series and
// gpt-oss; cl100k_base for GPT-4, GPT-3.5 and the embedding models. Other
// models get o200k_base with an assumed ratio.
func ForModel(model string) ModelEncoding {
	id := strings.ToLower(model)
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	switch {
	case hasAnyPrefix(id, "gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "gpt-oss", "o1", "o3", "o4",
		"codex-", "gpt-realtime", "gpt-audio", "computer-use", "omni-moderation"):
		return ModelEncoding{Encoding: O200kBase, Ratio: 1, Exact: true}
	case hasAnyPrefix(id, "gpt-4", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada-002"):
		return ModelEncoding{Encoding: Cl100kBase, Ratio: 1, Exact: true}
	case hasAnyPrefix(id, "claude"):
		return ModelEncoding{Encoding: O200kBase, Ratio: anthropicRatio}
	case hasAnyPrefix(id, "gemini", "gemma"):
		return ModelEncoding{Encoding: O200kBase, Ratio: googleRatio}
	}
	return ModelEncoding{Encoding: O200kBase, Ratio: otherRatio, Guessed: true}
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// Scale applies the ratio to a count, rounding up.
func (m ModelEncoding) Scale(count int) int {
	if m.Ratio == 1 || m.Ratio == 0 {
		return count
	}
	scaled := float64(count) * m.Ratio
	n := int(scaled)
	if float64(n) < scaled {
		n++
	}
	return n
}
