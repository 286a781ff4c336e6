// Evaluates expressions with omp 14.9.9's own calc tool (installed by the shared omp-reference.sh under
// ~/.cache/omp-reference) and prints them in the golden format of cases.txt: the expression as a JSON
// string, a tab, then the output or "ERROR: " and the message. Expressions come one per line on standard
// input, each a JSON string (the first column of cases.txt):
//   cut -f1 cases.txt | ~/.cache/omp-reference/node_modules/.bin/bun compare-omp-calc.ts | diff - cases.txt
// The Go test TestAgainstOmp runs it this way when bun and omp are installed.
const omp = (process.env.OMP_REFERENCE_DIR ?? `${process.env.HOME}/.cache/omp-reference`) +
	"/node_modules/@oh-my-pi/pi-coding-agent/src/tools/calculator.ts";
const { CalculatorTool } = await import(omp);
const calc = new CalculatorTool({});
const lines = (await Bun.stdin.text()).split("\n").filter(l => l.length > 0);
let out = "";
for (const line of lines) {
	const expression = JSON.parse(line);
	try {
		const r = await calc.execute("golden", { calculations: [{ expression, prefix: "", suffix: "" }] });
		out += `${line}\t${r.content[0].text}\n`;
	} catch (err) {
		out += `${line}\tERROR: ${(err as Error).message}\n`;
	}
}
process.stdout.write(out);
