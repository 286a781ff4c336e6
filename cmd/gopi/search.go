package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/ai/models"
	wstool "github.com/gopi-agent/gopi/core/tools/websearch"
	"github.com/gopi-agent/gopi/core/websearch"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

func init() {
	commands["search"] = command{"try the web search providers: search the web for QUERY and print the result", runSearch}
	commands["q"] = command{"the same as search (omp's alias)", runSearch}
	commandFlagSets["search"] = func() *pflag.FlagSet { return newSearchFlagSet(&searchCLI{}) }
}

// searchCLI holds the flags of `gopi search`.
type searchCLI struct {
	provider, recency string
	limit             int
	compact, help     bool
}

// newSearchFlagSet declares gopi search's flags on c.
func newSearchFlagSet(c *searchCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("search", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVar(&c.provider, "provider", "", "search with `NAME` (auto or a provider id; default: the providers.webSearch setting)")
	fs.StringVar(&c.recency, "recency", "", "only results of the last `PERIOD`: day, week, month or year (Brave, Perplexity, Tavily, SearXNG)")
	cliflags.NonNegIntVarP(fs, &c.limit, "limit", "l", 0, "at most `N` results")
	fs.BoolVar(&c.compact, "compact", false, "shorter output: six answer lines and five sources")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

func searchHelp() string {
	ids := []string{"auto"}
	for _, id := range websearch.Order {
		ids = append(ids, string(id))
	}
	return `Usage: gopi search [flags] QUERY...
       gopi q [flags] QUERY...

Searches the web with the providers the web_search tool uses and prints
the answer, the sources and what the provider reported. Providers are
tried in order (the preferred one first) and the next is asked when one
fails; a provider named with --provider is the only one asked, and when
it is not configured the command says what to set. Providers:
  ` + strings.Join(ids, ", ") + `

Keys: TAVILY_API_KEY, PERPLEXITY_COOKIES or PERPLEXITY_API_KEY,
BRAVE_API_KEY, JINA_API_KEY, MOONSHOT_SEARCH_API_KEY (or
KIMI_SEARCH_API_KEY, MOONSHOT_API_KEY), ANTHROPIC_SEARCH_API_KEY (or
ANTHROPIC_API_KEY), OPENAI_CODEX_OAUTH_TOKEN, ZAI_API_KEY, PARALLEL_API_KEY,
KAGI_API_KEY, SYNTHETIC_API_KEY, SEARXNG_ENDPOINT (or searxng.endpoint);
keys and sign-ins stored in agent.db count too (gemini needs a Google
sign-in: gopi login google-gemini-cli). Exa needs no key (EXA_API_KEY
uses its search API); exa.enabled: false turns it off.

Examples:
  gopi search --provider brave --recency week "latest Go release notes"
  gopi q -l 3 what is the color of the sky

Flags:
`
}

// runSearch implements `gopi search` (omp's q / web-search command).
func runSearch(ctx context.Context, env *cliEnv, args []string) int {
	var c searchCLI
	fs := newSearchFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "search", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, searchHelp()+cliflags.Help(fs))
		return exitMatch
	}
	query := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(query) == "" {
		return fail(env, "search", cliflags.Usagef("a query is required"))
	}
	if c.provider != "" && !websearch.Known(c.provider) {
		return fail(env, "search", cliflags.Usagef("unknown provider %q; use auto or one of %s", c.provider, joinIDs(websearch.Order)))
	}
	if c.recency != "" && !slices.Contains(websearch.Recencies, c.recency) {
		return fail(env, "search", cliflags.Usagef("invalid recency %q; use day, week, month or year", c.recency))
	}
	opt := websearch.Options{}
	if reg, err := models.Load(env.modelsOptions()); err == nil {
		opt.Keys = reg // keys and sign-ins stored in agent.db, as the tool has them
	}
	s := websearch.New(env.cfg.Web().Search, opt)
	if err := s.CheckProvider(c.provider); err != nil { // named, so no other provider is tried instead
		websearch.Report(env.stdout, nil, query, c.compact, err.Error())
		return exitNoMatch
	}
	res := wstool.Run(ctx, s, c.provider, wstool.Args{Query: query, Recency: c.recency, Limit: float64(c.limit)})
	d := res.Details.(*wstool.Details)
	websearch.Report(env.stdout, d.Response, query, c.compact, d.Error)
	if d.Error != "" {
		return exitNoMatch // omp exits 1 when every provider failed
	}
	return exitMatch
}

func joinIDs(ids []websearch.ID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = string(id)
	}
	return strings.Join(s, ", ")
}
