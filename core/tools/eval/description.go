package eval

import "strings"

// description is the model-facing text, with the parts of the runtimes
// that are on.
func description(py, js bool) string {
	var langs, example []string
	if py {
		langs = append(langs, "`py` (Python 3)")
		example = append(example, "*** Cell py:\"load\" t:20s", "import json", "cfg = json.loads(read('package.json'))", "", "*** Cell py:\"inspect\"", "display(cfg)")
	}
	if js {
		langs = append(langs, "`js` (JavaScript)")
		if len(example) > 0 {
			example = append(example, "")
		}
		example = append(example, "*** Cell js:\"count\" rst", "const files = await tool.find({ paths: ['**/*.go'] });", "return files;")
	}
	var b strings.Builder
	b.WriteString(`Runs code in cells whose runtime stays alive between calls: variables, imports and functions defined in one call are there in the next. Use it for computations, data wrangling, quick experiments and checks instead of running ` + "`python -c`, `node -e` or similar one-shot commands through bash" + `.

Input format: one or more cells. Each starts with a header line, and everything up to the next header is its code, verbatim:

    *** Cell <lang>:"<title>" t:<timeout> rst

- <lang> is ` + strings.Join(langs, " or ") + `; the title may be empty (py:""). A cell without a language uses the previous cell's.
- t:<timeout> (optional) limits the cell: digits with ms, s or m (500ms, 45s, 2m); default 30s, at most 10m. A cell that runs too long is interrupted; the runtime and its variables survive.
- rst (optional) starts this cell's language runtime afresh; the other language's state is untouched.

Keep cells small: one step per cell (imports, a definition, a check), several cells per call. The first cell that fails ends the call with its error ("Cell 3 failed"); what the earlier cells did is kept, so resend only the failing cell and those after it. Keep explanations in your message or in cell titles, not in the code.

Helpers in both languages (same argument order; Python takes options as keyword arguments and runs them synchronously, JavaScript takes a trailing options object and they return promises to await):
  display(value)                        show a value: data as a JSON tree, figures and images as pictures, text as text
  print(...)                            write to the cell's text output
  read(path, offset=1, limit=None)      a file's text; offset/limit select lines (1-based)
  write(path, content) / append(path, content)   create or extend a file (parent directories made); returns the path
  tree(path=".", max_depth=3, show_hidden=False) a directory tree as text
  diff(a, b)                            unified diff of two files
  env(key=None, value=None)             the environment (all, one variable, or set one)
  sort(lines) / uniq(lines) / counter(items)      line helpers
  output(*ids, format="raw", query=None, offset=None, limit=None)   the saved output of a task or tool by id
`)
	if js {
		b.WriteString("  tool.<name>(args)                     JavaScript only: call any of your tools with its argument object, e.g. await tool.read({ path: 'a.txt' })\n")
	}
	if py {
		b.WriteString(`
Python: a plain python3 process (no IPython). The value of a cell's last expression is shown. Top-level await works; asyncio.run() does not (a loop is already running). Matplotlib figures left open at the end of a cell come back as images. IPython's common magics work: %pip, %cd, %pwd, %ls, %env, %time, %timeit, %who, %run, %load, %reset, !command (and x = !command), %%bash, %%sh, %%capture, %%timeit, %%writefile. input() is not available: pass data in the code.
`)
	}
	if js {
		b.WriteString(`
JavaScript: an in-process ES2020 engine, not Node: no require, no npm modules, no network or process APIs; use the helpers and tool.<name> for files and commands. Top-level await and a bare top-level return (its value is shown) work; console.log prints.
`)
	}
	b.WriteString("\nExample:\n\n")
	for _, l := range example {
		b.WriteString("    " + l + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
