package read

import (
	"testing"

	"github.com/gopi-agent/gopi/core/tool/tooltest"
)

// TestGolden runs testdata/golden/*.txtar (see package tooltest); -update
// rewrites the expected sections.
func TestGolden(t *testing.T) {
	tooltest.RunDir(t, "testdata/golden", New)
}
