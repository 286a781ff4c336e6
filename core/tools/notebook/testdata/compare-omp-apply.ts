// Applies edited text views to notebooks with omp 14.9.9's own applyNotebookEditableText (from the
// omp-reference install under ~/.cache/omp-reference). Standard input is a JSON array of
// {"notebook": "<file content>", "text": "<edited view>"}; the output is a JSON array with, for each,
// the edited notebook as omp serialises it (JSON.stringify(nb, null, 1)) or {"error": message}.
// TestApplyAgainstOmp compares the cells with Apply's:
//   echo '[{"notebook": "{\"cells\": []}", "text": "# %% [code]\nx"}]' | ~/.cache/omp-reference/node_modules/.bin/bun compare-omp-apply.ts
const omp = (process.env.OMP_REFERENCE_DIR ?? `${process.env.HOME}/.cache/omp-reference`) +
	"/node_modules/@oh-my-pi/pi-coding-agent/src/edit/notebook.ts";
const { applyNotebookEditableText } = await import(omp);
const cases: { notebook: string; text: string }[] = JSON.parse(await Bun.stdin.text());
const out = cases.map(c => {
	try {
		return JSON.stringify(applyNotebookEditableText(JSON.parse(c.notebook), c.text, "nb.ipynb"), null, 1);
	} catch (err) {
		return { error: (err as Error).message };
	}
});
process.stdout.write(JSON.stringify(out));
