package read

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNotebookSizeCap: a notebook over maxNotebookBytes is not converted;
// the error points at :raw, which still reads it.
func TestNotebookSizeCap(t *testing.T) {
	defer func(v int64) { maxNotebookBytes = v }(maxNotebookBytes)
	maxNotebookBytes = 16
	env, dir := archiveEnv(t, nil)
	os.WriteFile(filepath.Join(dir, "big.ipynb"), []byte(`{"cells": [{"cell_type": "code", "source": "x"}]}`), 0o644)
	if got := readErr(t, env, "big.ipynb"); got != "Cannot read notebook big.ipynb: it is 49B, over the 16B read converts; read it as JSON with big.ipynb:raw and a line range." {
		t.Fatalf("got %s", got)
	}
	if res := call(t, env, "big.ipynb:raw"); res.IsError {
		t.Fatalf(":raw failed: %s", res.FirstText())
	}
}

// TestNotebookTextJoin: sources given as one string or as a list join to
// the same text, and null sources are empty cells.
func TestNotebookTextJoin(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"cells": [{"cell_type": "code", "source": "a\nb\n"}]}`:                                     "# %% [code] cell:0\na\nb\n",
		`{"cells": [{"cell_type": "code", "source": ["a\n", "b\n"]}]}`:                               "# %% [code] cell:0\na\nb\n",
		`{"cells": [{"cell_type": "markdown", "source": null}, {"cell_type": "raw"}]}`:               "# %% [markdown] cell:0\n\n# %% [raw] cell:1\n",
		`{"cells": [{"cell_type": "code", "source": "x", "outputs": [{"text": "hidden"}]}], "x": 1}`: "# %% [code] cell:0\nx",
	} {
		got, err := notebookText([]byte(in))
		if err != nil || got != want {
			t.Errorf("%s:\n got %q, %v\nwant %q", in, got, err, want)
		}
	}
}
