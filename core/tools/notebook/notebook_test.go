package notebook

import "testing"

// TestTextJoin: sources given as one string or as a list join to
// the same text, and null sources are empty cells.
func TestTextJoin(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"cells": [{"cell_type": "code", "source": "a\nb\n"}]}`:                                     "# %% [code] cell:0\na\nb\n",
		`{"cells": [{"cell_type": "code", "source": ["a\n", "b\n"]}]}`:                               "# %% [code] cell:0\na\nb\n",
		`{"cells": [{"cell_type": "markdown", "source": null}, {"cell_type": "raw"}]}`:               "# %% [markdown] cell:0\n# %% [raw] cell:1",
		`{"cells": [{"cell_type": "code", "source": "x", "outputs": [{"text": "hidden"}]}], "x": 1}`: "# %% [code] cell:0\nx",
	} {
		got, err := Text([]byte(in))
		if err != nil || got != want {
			t.Errorf("%s:\n got %q, %v\nwant %q", in, got, err, want)
		}
	}
}
