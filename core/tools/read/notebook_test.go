package read

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNotebookSizeCap: a notebook over maxNotebookBytes is not converted;
// the error points at :raw, which still reads it.
func TestNotebookSizeCap(t *testing.T) {
	t.Parallel()
	env, dir := archiveEnv(t, nil)
	withCaps(env, func(c *caps) { c.notebookBytes = 16 })
	os.WriteFile(filepath.Join(dir, "big.ipynb"), []byte(`{"cells": [{"cell_type": "code", "source": "x"}]}`), 0o644)
	if got := readErr(t, env, "big.ipynb"); got != "Cannot read notebook big.ipynb: it is 49B, over the 16B read converts; read it as JSON with big.ipynb:raw and a line range." {
		t.Fatalf("got %s", got)
	}
	if res := call(t, env, "big.ipynb:raw"); res.IsError {
		t.Fatalf(":raw failed: %s", res.FirstText())
	}
}
