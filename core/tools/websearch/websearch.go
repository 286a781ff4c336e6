// Package websearch is the web_search tool: it sends the model's query to
// the configured search providers (core/websearch) and returns their
// answer, sources and citations as text.
//
// The tool is offered when web_search.enabled is on (the default) and
// some provider is usable: Exa always is unless exa.enabled or
// exa.enableSearch is off (it answers without a key), the others with
// their key, endpoint or sign-in. A search that fails
// on every provider is still a normal result: its text starts with
// "Error:" and names the providers tried, as in omp.
package websearch

import (
	"context"
	"errors"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	engine "github.com/gopi-agent/gopi/core/websearch"
)

// Name is the tool's name.
const Name = "web_search"

const description = `Looks things up on the web, for facts that may be newer than your training or that you need to verify.

<instruction>
- Ask one focused question per call; the provider searches and may write an answer in the same call.
- Favour primary sources (official documentation, specifications, papers) and check key claims against a second source.
- When you use what you found, link the sources in your reply.
</instruction>

<output>
The answer when the provider writes one, then numbered sources (title, age, URL, snippet), citations and related questions.
</output>`

// Details is the structured part of a result.
type Details struct {
	Response *engine.Response `json:"response"`        // the provider's answer; provider "none" when all failed
	Error    string           `json:"error,omitempty"` // the failure, when every provider failed
}

// Tool is the web_search tool.
type Tool struct {
	searcher  *engine.Searcher
	preferred string
}

// New returns the tool over the session's search configuration.
func New(env *tool.Env) tool.Tool {
	return NewWith(engine.New(env.Settings.WebSearch, engine.Options{Keys: keys(env)}))
}

// NewWith returns the tool over a given searcher (tests, embedders).
func NewWith(s *engine.Searcher) tool.Tool { return &Tool{searcher: s} }

// Available reports whether a session offers web_search: the setting is
// on and some provider is usable (Exa without a key unless turned off, a
// key in the environment or the settings, or one stored by a sign-in).
func Available(env *tool.Env) bool {
	return env.Settings.WebSearch.Enabled && engine.Configured(env.Settings.WebSearch, keys(env))
}

// keys are the session's stored credentials, nil when it has none.
func keys(env *tool.Env) engine.Keys {
	if env.Keys == nil {
		return nil
	}
	return env.Keys
}

// Definition describes the tool; its parameters are omp's.
func (*Tool) Definition() tool.Definition {
	recency := tool.String("Recency filter (Brave, Perplexity)")
	recency.Enum = []any{"day", "week", "month", "year"}
	return tool.Definition{
		Name:        Name,
		Label:       "Web Search",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"query":              tool.String("Search query"),
			"recency":            recency,
			"limit":              tool.Number("Max results to return"),
			"max_tokens":         tool.Number("Maximum output tokens"),
			"temperature":        tool.Number("Sampling temperature"),
			"num_search_results": tool.Number("Number of search results to retrieve"),
		}, "query"),
		ReadOnly: true,
	}
}

// Args are the tool's arguments.
type Args struct {
	Query            string   `json:"query"`
	Recency          string   `json:"recency,omitempty"`
	Limit            float64  `json:"limit,omitempty"`
	MaxTokens        float64  `json:"max_tokens,omitempty"`
	Temperature      *float64 `json:"temperature,omitempty"`
	NumSearchResults float64  `json:"num_search_results,omitempty"`
}

// Execute runs the search.
func (t *Tool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a Args
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Query) == "" {
		return nil, errors.New("query is empty: give the words to search the web for")
	}
	return Run(ctx, t.searcher, "", a), nil
}

// Run searches with a on provider ("" or "auto": the configured choice)
// and returns the tool's result: the rendered text, or "Error: …".
func Run(ctx context.Context, s *engine.Searcher, provider string, a Args) *tool.Result {
	r, err := s.Search(ctx, provider, engine.Params{Query: a.Query, Recency: a.Recency, Limit: int(a.Limit),
		MaxTokens: int(a.MaxTokens), Temperature: a.Temperature, NumSearchResults: int(a.NumSearchResults)})
	if err != nil {
		return tool.TextResult("Error: "+err.Error(), &Details{Response: &engine.Response{Provider: engine.None, Sources: []engine.Source{}}, Error: err.Error()})
	}
	return tool.TextResult(engine.Text(r), &Details{Response: r})
}
