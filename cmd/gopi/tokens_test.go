package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/tokens"
)

// TestModelCountingResolvesCatalogNames checks that --model names the
// catalog knows by a short name count as that model, and that unknown ids
// keep the generic estimate instead of a fuzzy guess.
func TestModelCountingResolvesCatalogNames(t *testing.T) {
	cfg, err := config.Load(config.LoadOptions{Cwd: t.TempDir(), Home: t.TempDir(), Environ: []string{config.EnvCodingAgentDir + "=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		ratio   float64
		exact   bool
		guessed bool
	}{
		{"opus", 1.2, false, false},
		{"claude-sonnet-4-5", 1.2, false, false},
		{"gpt-4o", 1, true, false},
		{"llama-3-70b-instruct", 1.1, false, true},
	} {
		how, id := modelCounting(cfg, tc.name)
		if how.Ratio != tc.ratio || how.Exact != tc.exact || how.Guessed != tc.guessed {
			t.Errorf("%s: counted as %q with %+v", tc.name, id, how)
		}
	}
}

// TestCatalogModelsHaveEncodings maps every model of the built-in catalog:
// OpenAI's are counted exactly, Anthropic's and Google's with their
// provider's ratio, so a catalog addition the id rules miss fails here.
func TestCatalogModelsHaveEncodings(t *testing.T) {
	reg, err := models.Load(models.Options{NoFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range reg.Models() {
		how := tokens.ForModel(m.ID)
		switch m.Provider {
		case "openai":
			if !how.Exact {
				t.Errorf("openai/%s is not counted exactly: %+v", m.ID, how)
			}
		case "anthropic", "google":
			if how.Exact || how.Guessed {
				t.Errorf("%s/%s gets no provider ratio: %+v", m.Provider, m.ID, how)
			}
		}
	}
}

// A file that reports size 0 but never ends (/proc/self/pagemap) is
// counted up to the special-file cap, with a note, not read forever.
func TestTokensEndlessPseudoFile(t *testing.T) {
	const p = "/proc/self/pagemap"
	if _, err := os.Stat(p); err != nil {
		t.Skip("no " + p)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), environ: isolatedEnviron(t)}
	code := run(ctx, env, []string{"tokens", p})
	if ctx.Err() != nil {
		t.Fatalf("still counting %s after two minutes", p)
	}
	if code != 0 || !strings.Contains(stderr.String(), "first 64 MiB") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}
