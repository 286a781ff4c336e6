package websearch

import "time"

// ID names a search provider, as in the providers.webSearch setting.
type ID string

// The providers gopi speaks, plus the ones omp has that gopi does not
// (their ids are accepted as preferences and skipped).
const (
	Tavily     ID = "tavily"
	Perplexity ID = "perplexity"
	Brave      ID = "brave"
	Jina       ID = "jina"
	Kimi       ID = "kimi"
	Anthropic  ID = "anthropic"
	Gemini     ID = "gemini"
	Codex      ID = "codex"
	Zai        ID = "zai"
	Exa        ID = "exa"
	Parallel   ID = "parallel"
	Kagi       ID = "kagi"
	Synthetic  ID = "synthetic"
	SearXNG    ID = "searxng"
	None       ID = "none" // no provider answered (Response of a failed search)
)

// Order is omp's order of preference when no provider is preferred.
var Order = []ID{Tavily, Perplexity, Brave, Jina, Kimi, Anthropic, Gemini, Codex, Zai, Exa, Parallel, Kagi, Synthetic, SearXNG}

var labels = map[ID]string{
	Tavily: "Tavily", Perplexity: "Perplexity", Brave: "Brave", Jina: "Jina", Kimi: "Kimi",
	Anthropic: "Anthropic", Gemini: "Gemini", Codex: "Codex", Zai: "Z.AI", Exa: "Exa",
	Parallel: "Parallel", Kagi: "Kagi", Synthetic: "Synthetic", SearXNG: "SearXNG", None: "None",
}

// Label is the provider's display name ("Z.AI", "SearXNG").
func (id ID) Label() string {
	if l, ok := labels[id]; ok {
		return l
	}
	return string(id)
}

// Known reports whether s names a provider (or "auto").
func Known(s string) bool {
	if s == "auto" {
		return true
	}
	_, ok := labels[ID(s)]
	return ok && ID(s) != None
}

// Recency values the providers filter by.
var Recencies = []string{"day", "week", "month", "year"}

// Params is one search.
type Params struct {
	Query   string
	Limit   int    // results wanted; 0 is the provider's default
	Recency string // "", day, week, month or year; providers without a time filter ignore it
	// MaxTokens, Temperature and NumSearchResults tune the providers that
	// write an answer (Perplexity, Anthropic); 0 keeps their defaults.
	MaxTokens        int
	Temperature      *float64
	NumSearchResults int
}

// Source is one search result.
type Source struct {
	Title         string `json:"title"`
	URL           string `json:"url"`
	Snippet       string `json:"snippet,omitempty"`
	PublishedDate string `json:"publishedDate,omitempty"` // as the provider gave it
	AgeSeconds    *int64 `json:"ageSeconds,omitempty"`    // age at search time, when the date could be read
	Author        string `json:"author,omitempty"`
}

// Citation is a passage the answer cites.
type Citation struct {
	URL       string `json:"url"`
	Title     string `json:"title"`
	CitedText string `json:"citedText,omitempty"`
}

// Usage is what a provider reports it spent.
type Usage struct {
	InputTokens    *int `json:"inputTokens,omitempty"`
	OutputTokens   *int `json:"outputTokens,omitempty"`
	SearchRequests *int `json:"searchRequests,omitempty"`
	TotalTokens    *int `json:"totalTokens,omitempty"`
}

// Response is a provider's answer in the common shape.
type Response struct {
	Provider         ID         `json:"provider"`
	Answer           string     `json:"answer,omitempty"`
	Sources          []Source   `json:"sources"`
	Citations        []Citation `json:"citations,omitempty"`
	SearchQueries    []string   `json:"searchQueries,omitempty"`
	RelatedQuestions []string   `json:"relatedQuestions,omitempty"`
	Usage            *Usage     `json:"usage,omitempty"`
	Model            string     `json:"model,omitempty"`
	RequestID        string     `json:"requestId,omitempty"`
	AuthMode         string     `json:"authMode,omitempty"`
}

// Error is a provider's failure.
type Error struct {
	Provider   ID
	Status     int           // HTTP status; 0 when the request did not get one
	Message    string        // one line: what went wrong
	RetryAfter time.Duration // from a 429's Retry-After (Gemini: any failure's wait hint); 0 when absent
	KeyVar     string        // the variable holding the provider's key, for 401/403

	unreachable bool // no connection could be made (worth trying again)
}

func (e *Error) Error() string { return e.Message }
