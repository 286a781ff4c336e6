package grep

import (
	"testing"
)

// The zero tuning is the production configuration; a size a test sets is
// kept, and the seams default to the real matcher.
func TestTuningResolved(t *testing.T) {
	t.Parallel()
	if got := (tuning{}).resolved(); got.wholeFileLimit != defaultWholeFileLimit || got.blockSize != defaultBlockSize || got.renderSpill != defaultRenderSpill {
		t.Fatalf("zero tuning resolved to %+v", got)
	}
	if got := (tuning{wholeFileLimit: 64, blockSize: 256, renderSpill: 1}).resolved(); got.wholeFileLimit != 64 || got.blockSize != 256 || got.renderSpill != 1 {
		t.Fatalf("set sizes resolved to %+v", got)
	}
	o := DefaultOptions("x", "")
	if cfg := o.matcherConfig(); cfg.goRegex || cfg.pattern != "x" {
		t.Fatalf("matcher config %+v", cfg)
	}
	o.tuning.goRegex = true
	m, err := o.compileSearch()
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	if _, ok := m.(*goMatcher); !ok {
		t.Fatalf("goRegex compiled a %T", m)
	}
}
