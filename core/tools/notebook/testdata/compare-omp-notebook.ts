// Prints omp 14.9.9's text view of each notebook named on the command line (its own
// readEditableNotebookText, from the omp-reference install under ~/.cache/omp-reference) as one JSON
// object {path: view}; TestViewAgainstOmp compares it with Text:
//   ~/.cache/omp-reference/node_modules/.bin/bun compare-omp-notebook.ts a.ipynb b.ipynb
const omp = (process.env.OMP_REFERENCE_DIR ?? `${process.env.HOME}/.cache/omp-reference`) +
	"/node_modules/@oh-my-pi/pi-coding-agent/src/edit/notebook.ts";
const { readEditableNotebookText } = await import(omp);
const out: Record<string, string> = {};
for (const p of process.argv.slice(2)) out[p] = await readEditableNotebookText(p, p);
process.stdout.write(JSON.stringify(out));
