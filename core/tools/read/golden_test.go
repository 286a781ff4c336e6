package read

import (
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tool/tooltest"
	"github.com/gopi-agent/gopi/core/tools/read/readtest"
)

// TestGolden runs testdata/golden/*.txtar (see package tooltest); -update
// rewrites the expected sections. Sections named zip:, tar:, tgz: and
// sqlite: are built into archives and databases by package readtest.
func TestGolden(t *testing.T) {
	t.Parallel()
	tooltest.RunDir(t, "testdata/golden", func(env *tool.Env) tool.Tool { return New(env, nil) }, tooltest.Options{Build: readtest.Build})
}
