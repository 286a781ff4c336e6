package models

import (
	"testing"

	"github.com/gopi-agent/gopi/tokens"
)

// TestTokenCountingResolvesCatalogNames checks that names the catalog
// knows by a short name count as that model, that unknown ids keep the
// generic estimate instead of a fuzzy guess, and that the catalog is
// loaded only for names the id rules do not know.
func TestTokenCountingResolvesCatalogNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		ratio   float64
		exact   bool
		guessed bool
		loads   bool
	}{
		{"opus", 1.2, false, false, true},
		{"claude-sonnet-4-5", 1.2, false, false, false},
		{"gpt-4o", 1, true, false, false},
		{"llama-3-70b-instruct", 1.1, false, true, true},
	} {
		loaded := false
		how, id := TokenCounting(tc.name, func() (*Registry, error) {
			loaded = true
			return Load(Options{NoFiles: true})
		})
		if how.Ratio != tc.ratio || how.Exact != tc.exact || how.Guessed != tc.guessed || loaded != tc.loads {
			t.Errorf("%s: counted as %q with %+v (catalog loaded: %v)", tc.name, id, how, loaded)
		}
	}
}

// TestCatalogModelsHaveEncodings maps every model of the built-in catalog:
// OpenAI's are counted exactly, Anthropic's and Google's with their
// provider's ratio, so a catalog addition the id rules miss fails here.
func TestCatalogModelsHaveEncodings(t *testing.T) {
	t.Parallel()
	reg, err := Load(Options{NoFiles: true})
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
