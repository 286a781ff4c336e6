// Runs one patch-mode, apply_patch or replace-mode golden case (a .txtar in testdata/patch,
// testdata/apply_patch or testdata/replace)
// through omp 14.9.9 (installed by the shared omp-reference.sh under ~/.cache/omp-reference) and prints
// the result and files in the want/ format, to compare by hand with the golden:
//   (in testdata/patch) ~/.cache/omp-reference/node_modules/.bin/bun ../compare-omp-patch.ts update.txtar
// A patch-mode case (args.json) runs omp's applyPatch on an in-memory file system, the files under /w/.
// An apply_patch case (input) runs omp's own edit tool in apply_patch mode (the EditTool class with
// PI_EDIT_VARIANT=apply_patch, LSP off, settings in memory) in a temporary directory: its envelope
// parser hands each file section to that same applyPatch, one file after another, as the tool does.
// omp names files by absolute path (/w/... or the temporary directory) in its errors; gopi by the
// path as given.
// A replace-mode case (args.json whose edits hold old_text) runs omp's edit tool with
// PI_EDIT_VARIANT=replace the same way:
//   (in testdata/replace) ~/.cache/omp-reference/node_modules/.bin/bun ../compare-omp-patch.ts --check *.txtar
// With --check and any number of cases, it compares omp's result and files with each case's want/
// sections instead (the directory prefix dropped) and prints "same" or "DIFFERS" with both sides a case:
//   ~/.cache/omp-reference/node_modules/.bin/bun ../compare-omp-patch.ts --check *.txtar
// A file section ending with the line "\\ No newline at end of file" stands for the file without that line
// and the line break before it (as in the Go golden test).
// A case whose file name starts with "deviation_" records where gopi differs from omp on purpose
// (its comment says why): --check reports it as skipped, and shows omp's side.
import { applyPatch } from "/root/.cache/omp-reference/node_modules/@oh-my-pi/pi-coding-agent/src/edit/modes/patch.ts";
import * as nodePath from "node:path";
import * as nodeFs from "node:fs";
import * as nodeOs from "node:os";

const noEOL = "\\ No newline at end of file\n";
function withoutNoEOL(s: string): string { return s.endsWith("\n" + noEOL) ? s.slice(0, -noEOL.length - 1) : s; }
function withNoEOL(s: string): string { return s === "" || s.endsWith("\n") ? s : s + "\n" + noEOL; }

const ompSrc = "/root/.cache/omp-reference/node_modules/@oh-my-pi/pi-coding-agent/src";

async function runCase(file: string) {
	const text = await Bun.file(file).text();
	const sections = new Map<string, string>();
	let cur: string | null = null;
	for (const line of text.split("\n")) {
	  const m = line.match(/^-- (.+) --$/);
	  if (m) { cur = m[1]; sections.set(cur, ""); continue; }
	  if (cur) sections.set(cur, sections.get(cur) + line + "\n");
	}
	for (const [k, v] of sections) sections.set(k, withoutNoEOL(v));
	if (sections.has("input")) return runToolCase(sections, "apply_patch", { input: sections.get("input")!.replace(/\n$/, "") });
	if (/"old_text"/.test(sections.get("args.json") ?? "")) return runToolCase(sections, "replace", JSON.parse(sections.get("args.json")!));
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
	for (const n of names) out += `-- want/${n.slice(3)} --\n` + withNoEOL(files.get(n)!);
	return { out, files, texts, errors };
}

// runToolCase runs an apply_patch case (or a replace-mode case: args.json with old_text) through
// omp's edit tool in that mode, in a temporary directory holding the case's files (symlink/NAME
// sections become symbolic links), and returns the result text (prefixed "ERROR" when the tool
// threw or reported an error) and the files left, the directory prefix dropped from both.
async function runToolCase(sections: Map<string, string>, variant: string, params: unknown) {
	const dir = nodeFs.realpathSync(nodeFs.mkdtempSync(nodePath.join(nodeOs.tmpdir(), "omp-apply-patch-")));
	try {
	  for (const [k, v] of sections) {
	    if (k === "input" || k === "args.json" || k === "settings" || k.startsWith("want/") || k.startsWith("seen/")) continue;
	    const link = k.startsWith("symlink/");
	    const p = nodePath.join(dir, link ? k.slice("symlink/".length) : k);
	    nodeFs.mkdirSync(nodePath.dirname(p), { recursive: true });
	    if (link) nodeFs.symlinkSync(v.trim(), p);
	    else nodeFs.writeFileSync(p, v);
	  }
	  process.env.PI_EDIT_VARIANT = variant;
	  const { EditTool } = await import(`${ompSrc}/edit/index.ts`);
	  const { Settings } = await import(`${ompSrc}/config/settings.ts`);
	  await Settings.init({ inMemory: true, cwd: dir, agentDir: nodePath.join(dir, ".agent") } as any);
	  const session: any = {
	    cwd: dir, enableLsp: false, settings: Settings.isolated(),
	    getArtifactsDir: () => nodePath.join(dir, ".artifacts"), getSessionId: () => "golden",
	  };
	  let out: string;
	  try {
	    const r = await new EditTool(session).execute("golden", params);
	    out = (r.isError ? "ERROR\n" : "") + (r.content?.find((c: any) => c.type === "text")?.text ?? "") + "\n";
	  } catch (err) {
	    out = "ERROR\n" + (err as Error).message + "\n";
	  }
	  out = out.replaceAll(dir + "/", "");
	  const files = new Map<string, string>();
	  const walk = (d: string) => {
	    for (const e of nodeFs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name < b.name ? -1 : 1)) {
	      const p = nodePath.join(d, e.name);
	      if (e.isDirectory()) { if (e.name !== ".agent" && e.name !== ".artifacts") walk(p); }
	      else if (e.isFile()) files.set(nodePath.relative(dir, p), nodeFs.readFileSync(p, "utf8"));
	    }
	  };
	  walk(dir);
	  for (const n of [...files.keys()].sort()) out += `-- want/${n} --\n` + withNoEOL(files.get(n)!);
	  return { out, files };
	} finally {
	  nodeFs.rmSync(dir, { recursive: true, force: true });
	}
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
		if (nodePath.basename(file).startsWith("deviation_")) {
			console.log(`skip ${file} (a deliberate deviation, see its comment)${same ? " (omp agrees now: rename it)" : `\nomp:  ${JSON.stringify(got)}`}`);
			continue;
		}
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
