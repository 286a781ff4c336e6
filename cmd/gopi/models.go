package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

// modelsCLI holds the typed flags of `gopi models`.
type modelsCLI struct {
	available, json, help bool
}

// newModelsFlagSet declares gopi models' flags on c. It is also what
// completion scripts and the man page are generated from.
func newModelsFlagSet(c *modelsCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("models", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVarP(&c.available, "available", "a", false, "only models gopi can use now (credentials set or none needed, API implemented)")
	fs.BoolVar(&c.json, "json", false, "print the models as a JSON array")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const modelsHelp = `Usage: gopi models [--available] [--json] [SEARCH]

List the known models: omp's catalogue (every provider and model of
@oh-my-pi/pi-ai 14.9.9), the models of local servers that answer (Ollama,
llama.cpp, LM Studio, vLLM: found by asking them, no configuration needed),
plus models.yml in the agent directory (~/.gopi/agent, or
$PI_CODING_AGENT_DIR). SEARCH filters by a fuzzy match on "provider/id" and
the name, best match first. The KEY column says where the provider's
credentials come from: --api-key, a stored credential (auth.json), models.yml,
"env NAME" for an environment variable, "local" for servers that need none,
"-" when none is set. Models whose API gopi does not implement yet are listed
but cannot be chosen.

models.yml format:

  providers:
    my-proxy:                     # new provider: baseUrl and api required
      baseUrl: http://localhost:4000/v1
      api: openai-completions     # anthropic-messages | openai-completions |
                                  # openai-responses | google-generative-ai
      apiKey: MY_PROXY_KEY        # environment variable name, or the key itself
      headers: {X-Team: tools}
      models:
        - id: qwen3-coder
          name: Qwen3 Coder
          reasoning: false
          input: [text]           # text, image
          contextWindow: 131072
          maxTokens: 32768
          cost: {input: 0.2, output: 0.8, cacheRead: 0, cacheWrite: 0}
    ollama:                       # built-in provider: add models, change URL/key
      models: [{id: "qwen3:32b", reasoning: true}]

Flags:
`

// runModels implements `gopi models`.
func runModels(ctx context.Context, env *cliEnv, args []string) int {
	var c modelsCLI
	fs := newModelsFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "models", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, modelsHelp+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() > 1 {
		return fail(env, "models", cliflags.Usagef("give at most one SEARCH (quote it if it has spaces)"))
	}
	reg, err := models.Load(env.modelsOptions())
	if err != nil {
		return fail(env, "models", err)
	}
	// A listing shows the local servers' models: wait for their probes
	// (each ends within models.DiscoveryTimeout).
	reg.Discover(ctx, nil, 0)
	reg.WaitDiscovery(ctx)
	query := strings.Join(fs.Args(), " ")
	var list []*ai.Model
	hasAuth := reg.AuthCheck()
	for _, m := range reg.Search(query) {
		if !c.available || hasAuth(m) && ai.HasAPI(m.API) {
			list = append(list, m)
		}
	}
	if len(list) == 0 {
		if query != "" {
			fmt.Fprintf(env.stderr, "gopi models: no models match %q\n", query)
		} else {
			fmt.Fprintln(env.stderr, "gopi models: no models with credentials; set a provider's API key (see 'gopi models --help')")
		}
		return exitNoMatch
	}
	if c.json {
		type row struct {
			*ai.Model
			KeySource string `json:"keySource"`
		}
		rows := make([]row, len(list))
		for i, m := range list {
			rows[i] = row{m, keyColumn(reg, m)}
		}
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rows); err != nil {
			return fail(env, "models", err)
		}
		return exitMatch
	}
	tw := tabwriter.NewWriter(env.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tNAME\tAPI\tCONTEXT\tOUTPUT\tTHINKING\tINPUT\t$IN/M\t$OUT/M\tKEY")
	for _, m := range list {
		think := "-"
		if m.Reasoning {
			think = "yes"
		}
		fmt.Fprintf(tw, "%s/%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			m.Provider, m.ID, m.Name, m.API, tokenCount(m.ContextWindow), tokenCount(m.MaxTokens), think,
			strings.Join(m.Input, ","), price(m.Cost.Input), price(m.Cost.Output), keyColumn(reg, m))
	}
	tw.Flush()
	return exitMatch
}

// keyColumn says where the model's credentials come from: the registry's
// source, "local" for a provider that needs none, "-" for none.
func keyColumn(reg *models.Registry, m *ai.Model) string {
	switch src := reg.CredentialSource(m.Provider); src {
	case "":
		return "-"
	case "none":
		return "local"
	default:
		return src
	}
}

// tokenCount renders a token count as 200K / 1M / 1.05M.
func tokenCount(n int) string {
	switch {
	case n >= 1_000_000:
		return strconv.FormatFloat(float64(n)/1_000_000, 'g', 3, 64) + "M"
	case n >= 1000:
		return strconv.Itoa(n/1000) + "K"
	}
	return strconv.Itoa(n)
}

func price(p float64) string {
	if p == 0 {
		return "-"
	}
	return strconv.FormatFloat(p, 'f', 2, 64)
}
