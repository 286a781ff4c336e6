package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/nbformattest"
)

// jupyterNotebook is a notebook as Jupyter saves it (indent 1, sorted
// keys, raw UTF-8, final newline), with outputs.
const jupyterNotebook = `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "intro",
   "metadata": {},
   "source": [
    "# Résumé"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 7,
   "id": "calc",
   "metadata": {
    "scrolled": true
   },
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "42\n"
     ]
    }
   ],
   "source": [
    "answer = 6 * 7\n",
    "print(answer)"
   ]
  }
 ],
 "metadata": {
  "kernelspec": {
   "display_name": "Python 3",
   "language": "python",
   "name": "python3"
  }
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
`

// The model reads a notebook, then edits a line of a code cell with the
// anchors read showed it: the file changes in that source line only and
// still opens in Python's json and nbformat.
func TestAgentEditsNotebookCell(t *testing.T) {
	// The text view read shows: line 4 is "answer = 6 * 7".
	anchor := hashline.Anchor(4, "answer = 6 * 7")
	input := "@@ nb.ipynb\n= " + anchor + ".." + anchor + "\n~answer = 6 * 9\n"
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("read", map[string]any{"path": "nb.ipynb"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("edit", map[string]any{"input": input})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Changed the answer.")}},
	)
	r.Write("nb.ipynb", jupyterNotebook)
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "make the answer 54")
	if code != 0 || out != "Changed the answer.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	read := agentrig.MustMarshal(t, r.RequestMessages(1))
	if !strings.Contains(read, anchor+`|answer = 6 * 7`) || !strings.Contains(read, `# %% [code] cell:1`) {
		t.Fatalf("read did not show the cell text with the anchor the edit used (%s): %s", anchor, read)
	}
	edited := agentrig.MustMarshal(t, r.RequestMessages(2))
	if !strings.Contains(edited, `answer = 6 * 9`) || strings.Contains(edited, `"isError":true`) {
		t.Fatalf("the edit did not succeed: %s", edited)
	}
	path := filepath.Join(r.Project, "nb.ipynb")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(jupyterNotebook, `"answer = 6 * 7\n"`, `"answer = 6 * 9\n"`, 1); string(got) != want {
		t.Fatalf("notebook after the edit:\n%s\nwant:\n%s", got, want)
	}
	nbformattest.Validate(t, path)
}
