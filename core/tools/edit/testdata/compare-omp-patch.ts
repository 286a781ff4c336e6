// Runs one patch-mode golden case (the path, edits and files of a .txtar here) through omp 14.9.9's own
// applyPatch (installed by the shared omp-reference.sh under ~/.cache/omp-reference) on an in-memory file
// system and prints the result and files in the want/ format, to compare by hand with the golden:
//   (in testdata/patch) ~/.cache/omp-reference/node_modules/.bin/bun ../compare-omp-patch.ts update.txtar
// omp names files by absolute path (here /w/...) in its errors; gopi by the path as given.
// With --check and any number of cases, it compares omp's result and files with each case's want/
// sections instead (the /w/ prefix dropped) and prints "same" or "DIFFERS" with both sides a case:
//   ~/.cache/omp-reference/node_modules/.bin/bun ../compare-omp-patch.ts --check *.txtar
import { applyPatch } from "/root/.cache/omp-reference/node_modules/@oh-my-pi/pi-coding-agent/src/edit/modes/patch.ts";
import * as nodePath from "node:path";
async function runCase(file: string) {
	const text = await Bun.file(file).text();
	const sections = new Map<string, string>();
	let cur: string | null = null;
	for (const line of text.split("\n")) {
	  const m = line.match(/^-- (.+) --$/);
	  if (m) { cur = m[1]; sections.set(cur, ""); continue; }
	  if (cur) sections.set(cur, sections.get(cur) + line + "\n");
	}
	const files = new Map<string, string>();
	for (const [k, v] of sections) if (k !== "args.json" && !k.startsWith("want/") && k !== "input" && k !== "settings") files.set("/w/" + k, v);
	const fs = {
	  async exists(p: string) { return files.has(p); },
	  async read(p: string) { if (!files.has(p)) { const e: any = new Error("ENOENT"); e.code = "ENOENT"; throw e; } return files.get(p)!; },
	  async write(p: string, c: string) { files.set(p, c); },
	  async delete(p: string) { files.delete(p); },
	  async mkdir(_p: string) {},
	};
	const args = JSON.parse(sections.get("args.json")!);
	const texts: string[] = []; let errors = 0;
	for (const e of args.edits ?? []) {
	  const op = e.op === "create" || e.op === "delete" ? e.op : "update";
	  try {
	    const r = await applyPatch({ path: nodePath.resolve("/w", args.path), op, rename: e.rename ? nodePath.resolve("/w", e.rename) : undefined, diff: e.diff }, { cwd: "/w", fs });
	    texts.push(r.change.type === "create" ? `Created ${args.path}` : r.change.type === "delete" ? `Deleted ${args.path}` : r.change.newPath ? `Updated and moved ${args.path} to ${e.rename}` : `Updated ${args.path}`);
	  } catch (err) { errors++; texts.push((args.edits.length > 1 ? `Error editing ${args.path}: ` : "") + (err as Error).message); }
	}
	let out = (errors ? "ERROR\n" : "") + texts.join("\n") + "\n";
	const names = [...files.keys()].sort();
	for (const n of names) out += `-- want/${n.slice(3)} --\n` + files.get(n);
	return { out, files, texts, errors };
}

const argv = process.argv.slice(2);
if (argv[0] !== "--check") {
	console.log((await runCase(argv[0])).out);
} else {
	let differ = 0;
	for (const file of argv.slice(1)) {
		const { out } = await runCase(file);
		const want = wantOf(await Bun.file(file).text());
		if (want["want/result"]?.startsWith("ERROR\nInvalid arguments")) {
			console.log(`skip ${file} (schema validation comes before omp's applyPatch)`);
			continue;
		}
		const got = wantOf(out.replaceAll("/w/", "").replace(/^/, "-- want/result --\n"));
		const same = JSON.stringify(want) === JSON.stringify(got);
		if (!same) differ++;
		console.log(`${same ? "same" : "DIFFERS"} ${file}`);
		if (!same) console.log(`gopi: ${JSON.stringify(want)}\nomp:  ${JSON.stringify(got)}`);
	}
	process.exit(differ ? 1 : 0);
}

// wantOf maps each want/ section of a txtar text to its content, trailing blank lines dropped.
function wantOf(text: string): Record<string, string> {
	const out: Record<string, string> = {};
	let cur: string | null = null;
	for (const line of text.split("\n")) {
		const m = line.match(/^-- (.+) --$/);
		if (m) { cur = m[1].startsWith("want/") && m[1] !== "want/diff" ? m[1] : null; if (cur) out[cur] = ""; continue; }
		if (cur) out[cur] += line + "\n";
	}
	for (const k of Object.keys(out)) out[k] = out[k].replace(/\n+$/, "");
	return Object.fromEntries(Object.entries(out).sort());
}
