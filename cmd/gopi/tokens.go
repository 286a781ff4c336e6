package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
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
	valueName(fs, "encoding", "NAME")
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

// tokensFile is one counted input in the --json output.
type tokensFile struct {
	Path   string `json:"path"`
	Bytes  int    `json:"bytes"`
	Tokens int    `json:"tokens"`
}

// tokensReport is the --json output.
type tokensReport struct {
	Encoding string       `json:"encoding"`
	Model    string       `json:"model,omitempty"`
	Ratio    float64      `json:"ratio,omitempty"` // set when the counts are estimates
	Files    []tokensFile `json:"files"`
	Bytes    int          `json:"bytes"`
	Tokens   int          `json:"tokens"`
}

func runTokens(ctx context.Context, env *cliEnv, args []string) int {
	var c tokensCLI
	fs := newTokensFlagSet(&c)
	if err := parseFlags(fs, args); err != nil {
		return fail(env, "tokens", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, tokensUsage+pflagHelp(fs))
		return exitMatch
	}
	code, err := tokensMain(ctx, env, &c, fs.Args())
	if err != nil {
		return fail(env, "tokens", err)
	}
	return code
}

// tokensMain counts paths (standard input when there are none).
func tokensMain(ctx context.Context, env *cliEnv, c *tokensCLI, paths []string) (int, error) {
	how := tokens.ModelEncoding{Encoding: tokens.O200kBase, Ratio: 1, Exact: true}
	model := c.model
	if model != "" {
		if c.encoding != "" {
			return exitError, usagef("give --encoding or --model, not both")
		}
		how, model = modelCounting(env.cfg, model)
	} else if c.encoding != "" {
		how.Encoding = c.encoding
	}
	enc, err := tokens.Get(how.Encoding)
	if err != nil {
		if model == "" {
			return exitError, usagef("--encoding: %v", err)
		}
		return exitError, err
	}
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	report := tokensReport{Encoding: enc.Name(), Model: model, Files: []tokensFile{}}
	if !how.Exact {
		report.Ratio = how.Ratio
	}
	code := exitMatch
	for _, path := range paths {
		if err := ctx.Err(); err != nil {
			return exitError, err
		}
		var raw, size int
		if c.estimate && estimateReadsWhole(path) {
			text, err := readInput(env, path)
			if err != nil {
				fmt.Fprintf(env.stderr, "gopi tokens: %v\n", err)
				code = exitError
				continue
			}
			raw, size = enc.Estimate(text), len(text)
		} else {
			n, sz, err := countInput(ctx, env, enc, path)
			if err != nil {
				fmt.Fprintf(env.stderr, "gopi tokens: %v\n", err)
				code = exitError
				continue
			}
			raw, size = n, int(sz)
		}
		n := how.Scale(raw)
		report.Files = append(report.Files, tokensFile{Path: path, Bytes: size, Tokens: n})
		report.Bytes += size
		report.Tokens += n
	}
	if c.json {
		b, err := json.Marshal(report)
		if err != nil {
			return exitError, err
		}
		fmt.Fprintf(env.stdout, "%s\n", b)
		return code, nil
	}
	width := len(fmt.Sprint(report.Tokens))
	for _, f := range report.Files {
		fmt.Fprintf(env.stdout, "%*d %s\n", width, f.Tokens, f.Path)
	}
	if len(report.Files) > 1 {
		fmt.Fprintf(env.stdout, "%*d total\n", width, report.Tokens)
	}
	if !how.Exact {
		fmt.Fprintf(env.stdout, "(estimate for %s: %s count × %g)\n", model, enc.Name(), how.Ratio)
	}
	return code, nil
}

// maxEstimateRead is the largest file --estimate reads into memory to
// sample; larger files (and stdin, of unknown size) are counted exactly by
// streaming instead, which keeps memory bounded.
const maxEstimateRead = 256 << 20

// estimateReadsWhole reports whether --estimate may read path whole.
func estimateReadsWhole(path string) bool {
	if path == "-" {
		return false
	}
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Size() <= maxEstimateRead
}

// specialFileCap is how much of a named file that is not a regular file
// (a device, a FIFO) gopi tokens reads: /dev/zero never ends.
const specialFileCap = 64 << 20

// countInput counts the tokens of a file, or of standard input for "-",
// streaming it (memory stays bounded whatever its size). A named special
// file is read up to specialFileCap, with a note on stderr.
func countInput(ctx context.Context, env *cliEnv, enc *tokens.Encoding, path string) (int, int64, error) {
	if path == "-" {
		n, size, err := enc.CountReader(ctx, env.stdin)
		if err != nil {
			return 0, size, fmt.Errorf("read standard input: %w", err)
		}
		return n, size, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	var r io.Reader = f
	// A device, a FIFO, or a "regular" pseudo-file that reports no size
	// (/proc/self/pagemap never ends) is counted up to specialFileCap.
	capped := !info.Mode().IsRegular() || info.Size() == 0
	switch {
	case info.IsDir():
		return 0, 0, fmt.Errorf("%s: is a directory; give files (e.g. with gopi find)", path)
	case capped:
		r = io.LimitReader(f, specialFileCap)
	}
	n, size, err := enc.CountReader(ctx, r)
	if err != nil {
		return 0, size, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	if capped && size == specialFileCap {
		fmt.Fprintf(env.stderr, "gopi tokens: %s is not a regular file (or reports no size): counted its first %d MiB only\n", path, specialFileCap>>20)
	}
	return n, size, nil
}

// readInput reads a file, or standard input for "-".
func readInput(env *cliEnv, path string) (string, error) {
	if path == "-" {
		b, err := io.ReadAll(env.stdin)
		if err != nil {
			return "", fmt.Errorf("read standard input: %w", err)
		}
		return string(b), nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	if info.IsDir() {
		return "", fmt.Errorf("%s: is a directory; give files (e.g. with gopi find)", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	return string(b), nil
}

// unwrapPathError drops the "open PATH:" prefix the message already has.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// modelCounting says how to count for the model the user named. A name the
// id rules recognise is used as given; otherwise it is looked up in the
// model catalog and models.yml, so "opus" counts as the Claude model it
// names. Only exact and substring matches are taken: a fuzzy guess could
// turn an unknown open-weight model into an unrelated OpenAI one. It
// returns the rule and the model id the counts are for.
func modelCounting(cfg *config.Config, name string) (tokens.ModelEncoding, string) {
	how := tokens.ForModel(name)
	if !how.Guessed {
		return how, name
	}
	reg, err := models.Load(modelsOptions(cfg))
	if err != nil {
		return how, name
	}
	m, err := reg.Find(name)
	if err != nil {
		return how, name
	}
	q := strings.ToLower(strings.TrimSpace(name))
	for _, s := range []string{m.ID, m.Name, m.Provider + "/" + m.ID} {
		if strings.Contains(strings.ToLower(s), q) {
			return tokens.ForModel(m.ID), m.ID
		}
	}
	return how, name
}
