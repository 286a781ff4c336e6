package main

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/tokens"
)

// tokensCLI holds the typed flags of `gopi tokens`.
type tokensCLI struct {
	encoding, model      string
	estimate, json, help bool
}

// newTokensFlagSet declares gopi tokens' flags on c. It is also what
// completion scripts and the man page are generated from.
func newTokensFlagSet(c *tokensCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("tokens", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVarP(&c.encoding, "encoding", "e", "", "o200k_base (default) or cl100k_base")
	cliflags.ValueName(fs, "encoding", "NAME")
	fs.StringVarP(&c.model, "model", "m", "", "count for `MODEL`: its encoding, and for non-OpenAI models an estimate with a stated ratio")
	fs.BoolVar(&c.estimate, "estimate", false, "sample files over 4 MiB instead of counting every token (within a few percent)")
	fs.BoolVar(&c.json, "json", false, "print one JSON object with per-file and total counts")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const tokensUsage = `Usage: gopi tokens [FLAGS] [FILE...]

Count the tokens of each FILE (standard input when there is none, or for
'-') with an OpenAI byte-pair encoding, exactly as tiktoken does, and print
one line per file, "COUNT PATH", then a total when there are several files.
Special tokens such as <|endoftext|> count as the plain text they are.

With --model, OpenAI models use their own encoding (o200k_base for GPT-4o,
GPT-4.1, GPT-5 and the o-series; cl100k_base for GPT-4 and GPT-3.5); other
models are estimated as the o200k_base count times a ratio (Claude 1.2,
Gemini 1.05, others 1.1), and the output says so.

Exit status: 0 on success, 2 when a file could not be read or on bad usage.

Flags:
`

func runTokens(ctx context.Context, env *cliEnv, args []string) int {
	var c tokensCLI
	fs := newTokensFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "tokens", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, tokensUsage+cliflags.Help(fs))
		return exitMatch
	}
	defer loosenGC()()
	code, err := tokensMain(ctx, env, &c, fs.Args())
	if err != nil {
		return fail(env, "tokens", err)
	}
	return code
}

// tokensHeapLimit is the heap size up to which a count runs without the
// collector (see loosenGC).
const tokensHeapLimit = 128 << 20

// loosenGC turns the collector off for a count until the heap reaches
// tokensHeapLimit, unless GOGC or GOMEMLIMIT set something other than the
// defaults, and returns what puts the settings back. A count keeps little
// (a few segments per worker and the piece caches): with the default
// target the collector ran three times over a 9.4 MB file, 4% of the
// instructions, and each of its stops waited for the counting loops to be
// preempted. Past the limit (many large files, each read into a buffer of
// its own) it collects as usual.
func loosenGC() (restore func()) {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return func() {}
	}
	if prev := debug.SetGCPercent(-1); prev != 100 {
		debug.SetGCPercent(prev)
		return func() {}
	}
	debug.SetMemoryLimit(tokensHeapLimit)
	return func() {
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(100)
	}
}

// tokensMain counts paths (standard input when there are none).
func tokensMain(ctx context.Context, env *cliEnv, c *tokensCLI, paths []string) (int, error) {
	how := tokens.ModelEncoding{Encoding: tokens.O200kBase, Ratio: 1, Exact: true}
	model := c.model
	if model != "" {
		if c.encoding != "" {
			return exitError, cliflags.Usagef("give --encoding or --model, not both")
		}
		how, model = models.TokenCounting(model, func() (*models.Registry, error) { return models.Load(env.modelsOptions()) })
	} else if c.encoding != "" {
		how.Encoding = c.encoding
	}
	enc, err := tokens.Get(how.Encoding)
	if err != nil {
		if model == "" {
			return exitError, cliflags.Usagef("--encoding: %v", err)
		}
		return exitError, err
	}
	report, all, err := tokens.CountInputs(ctx, paths, tokens.InputOptions{
		Encoding: enc, Rule: how, Model: model, Estimate: c.estimate, Stdin: env.stdin,
		Warn: func(msg string) { fmt.Fprintf(env.stderr, "gopi tokens: %s\n", msg) },
	})
	if err != nil {
		return exitError, err
	}
	code := exitMatch
	if !all {
		code = exitError
	}
	if c.json {
		if err := report.WriteJSON(env.stdout); err != nil {
			return exitError, err
		}
		return code, nil
	}
	report.WriteText(env.stdout)
	return code, nil
}
