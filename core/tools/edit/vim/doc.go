// Package vim is the modal editing engine behind the edit tool's vim mode
// (PI_EDIT_VARIANT=vim): a buffer of lines with a cursor, NORMAL, INSERT
// (R's overwriting kind too), VISUAL, VISUAL-LINE and COMMAND modes,
// counts, motions, operators, text objects, undo, search and ex commands,
// driven by the key sequences a model sends ("3Go", "dd",
// ":%s/a/b/g<CR>"). It follows omp 14.9.9's engine (its keys, statuses and
// error texts; testdata/omp-vim.jsonl is that engine's output on
// testdata/scenarios.json) except where omp's edit is not vim's, which the
// comparison test lists with its reasons.
//
// The engine does no I/O: loading, saving and rendering belong to the
// tool, which keeps one Engine per file for the session and reaches the
// disk through Hooks (:w, :e!, :e FILE). There is no screen: the view is
// the numbered stretch of lines the result shows, which z, H, M and L
// work on. Keys outside the supported set fail with "Unsupported
// command: X" and leave the buffer as the keys before them left it; the
// tool reports where.
package vim
