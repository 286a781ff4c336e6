// Package eval is the eval tool: the model runs Python or JavaScript in
// cells whose runtimes keep their state between calls, instead of
// one-shot `python -c` or `node -e` commands through bash.
//
// The input is one string of cells (parse.go): `*** Cell py:"title" t:30s
// rst` headers, each followed by its code. A cell without a language in
// its header takes the previous cell's, else the one its code shows
// (sniff.go), else Python. Cells run in order, each with its own timeout
// (30 s by default, 1 to 600 s); the first one that fails or is
// interrupted ends the call, and what earlier cells defined stays.
//
// The runtimes are Backends the session owns and hands to the tool:
// Python kernels (core/eval/pykernel) and JavaScript contexts
// (core/eval/jscell). Each cell's text output goes through a
// tool.OutputSink, as bash's does: the model sees the last 50 KB and a
// notice naming the artifact with the whole; pictures a cell shows
// (display() of an image, matplotlib figures) come back as image blocks
// of the result, JSON displays as indented text.
package eval
