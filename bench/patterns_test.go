package bench

import "testing"

// TestPatternsFile checks that patterns.tsv parses, holds the at least five
// patterns the targets are judged on, and names each one once.
func TestPatternsFile(t *testing.T) {
	pats, err := LoadPatterns("patterns.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if len(pats) < 5 {
		t.Fatalf("patterns.tsv holds %d patterns, want at least 5", len(pats))
	}
	seen := map[string]bool{}
	for _, p := range pats {
		if seen[p.Name] {
			t.Errorf("pattern name %q repeated", p.Name)
		}
		seen[p.Name] = true
	}
}
