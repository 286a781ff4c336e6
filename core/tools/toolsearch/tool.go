package toolsearch

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// Name is the tool's wire name (kept from omp for session compatibility).
const Name = "search_tool_bm25"

// DefaultLimit is how many matches a search activates when the call sets
// no limit.
const DefaultLimit = 8

// Host is what the tool needs of its session.
type Host interface {
	// Hidden returns the tools the model can discover now: hidden and
	// not yet activated.
	Hidden() []Doc
	// Selected returns the names activated by earlier searches.
	Selected() []string
	// Activate offers the named tools from the next model call on and
	// returns the names it activated.
	Activate(names []string) ([]string, error)
}

// MatchDetail is one ranked match in Details.
type MatchDetail struct {
	Name        string   `json:"name"`
	Label       string   `json:"label"`
	Description string   `json:"description"`
	ServerName  string   `json:"server_name,omitempty"`
	MCPToolName string   `json:"mcp_tool_name,omitempty"`
	SchemaKeys  []string `json:"schema_keys"`
	Score       float64  `json:"score"`
}

// Details are the structured details of a search: the ranked matches
// renderers show (the model sees only the summary in Content).
type Details struct {
	Query          string        `json:"query"`
	Limit          int           `json:"limit"`
	TotalTools     int           `json:"total_tools"`
	ActivatedTools []string      `json:"activated_tools"`
	ActiveSelected []string      `json:"active_selected_tools"`
	Tools          []MatchDetail `json:"tools"`
}

// Tool is search_tool_bm25 over one session's hidden tools.
type Tool struct {
	host Host
}

// New returns the tool for host.
func New(host Host) *Tool { return &Tool{host: host} }

// Definition describes the tool; the description counts the hidden tools
// and names their servers, as they are when the tools are built.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        Name,
		Label:       "SearchTools",
		Description: Description(t.host.Hidden()),
		Parameters: tool.Object(map[string]*tool.Schema{
			"query": {Type: "string", Description: "tool search query", Examples: []any{"kubernetes pod", "image processing", "git commit"}},
			"limit": {Type: "integer", Description: "max matches", Minimum: tool.Ptr(1.0)},
		}, "query"),
		ReadOnly: true,
	}
}

// Description is the model-facing description for the hidden tools docs.
func Description(docs []Doc) string {
	var b strings.Builder
	b.WriteString("Finds tools that are hidden from you and makes them available: MCP server tools and, in some sessions, built-in tools.\n\n")
	b.WriteString("Call it when you need a capability none of your current tools has.\n")
	if servers := serverSummary(docs); servers != "" {
		b.WriteString("MCP servers with hidden tools: " + servers + ".\n")
	}
	if len(docs) > 0 {
		fmt.Fprintf(&b, "Hidden tools in all: %d.\n", len(docs))
	}
	b.WriteString(`
<instruction>
- query: keywords or a short phrase naming the capability ("create github issue", "query postgres").
- limit: how many of the best matches to activate (default 8; 5 to 10 is usually right).
- Matching uses each tool's name, label, server, MCP tool name, description and input property names, ranked by BM25.
- Activated tools stay available for the rest of the session and can be called from your next step on; searching again adds to them.
- This finds tools, not code or files: use the search tools for those.
</instruction>

<output>
JSON: query, activated_tools (the names now callable), match_count, total_tools (how many were hidden).
</output>`)
	return b.String()
}

// serverSummary lists the servers of docs with their tool counts.
func serverSummary(docs []Doc) string {
	count := map[string]int{}
	for _, d := range docs {
		if d.Server != "" {
			count[d.Server]++
		}
	}
	names := make([]string, 0, len(count))
	for n := range count {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		unit := "tools"
		if count[n] == 1 {
			unit = "tool"
		}
		parts[i] = fmt.Sprintf("%s (%d %s)", n, count[n], unit)
	}
	return strings.Join(parts, ", ")
}

// Execute searches the hidden tools and activates the best matches.
func (t *Tool) Execute(_ context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Query string   `json:"query"`
		Limit *float64 `json:"limit"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	query := strings.TrimSpace(a.Query)
	if query == "" {
		return nil, tool.Errorf("query is empty; give keywords naming the capability you need")
	}
	limit := DefaultLimit
	if a.Limit != nil {
		if *a.Limit < 1 || *a.Limit != math.Trunc(*a.Limit) {
			return nil, tool.Errorf("limit must be a positive integer, not %v", *a.Limit)
		}
		limit = int(*a.Limit)
	}
	docs := t.host.Hidden()
	skip := map[string]bool{}
	for _, n := range t.host.Selected() {
		skip[n] = true
	}
	matches, err := NewIndex(docs).Search(query, limit, skip)
	if err != nil {
		return nil, tool.Errorf("%v", err)
	}
	d := &Details{Query: query, Limit: limit, TotalTools: len(docs), ActivatedTools: []string{}, Tools: make([]MatchDetail, len(matches))}
	names := make([]string, len(matches))
	for i, m := range matches {
		names[i] = m.Doc.Name
		d.Tools[i] = MatchDetail{Name: m.Doc.Name, Label: m.Doc.Label, Description: m.Doc.Summary, ServerName: m.Doc.Server,
			MCPToolName: m.Doc.MCPName, SchemaKeys: append([]string{}, m.Doc.SchemaKeys...), Score: math.Round(m.Score*1e6) / 1e6}
	}
	if len(names) > 0 {
		activated, err := t.host.Activate(names)
		if err != nil {
			return nil, tool.Errorf("activating %s: %v", strings.Join(names, ", "), err)
		}
		d.ActivatedTools = append(d.ActivatedTools, activated...)
	}
	d.ActiveSelected = append([]string{}, t.host.Selected()...)
	content, err := json.Marshal(struct {
		Query          string   `json:"query"`
		ActivatedTools []string `json:"activated_tools"`
		MatchCount     int      `json:"match_count"`
		TotalTools     int      `json:"total_tools"`
	}{query, d.ActivatedTools, len(d.Tools), d.TotalTools})
	if err != nil {
		return nil, err
	}
	return tool.TextResult(string(content), d), nil
}
