// Writes omp-vim.jsonl: each scenario of scenarios.json run through omp 14.9.9's own vim engine and
// renderer (installed by the shared omp-reference.sh under ~/.cache/omp-reference). Run from this directory:
//   ~/.cache/omp-reference/node_modules/.bin/bun gen-omp-vim.ts scenarios.json > omp-vim.jsonl
import { VimBuffer } from "/root/.cache/omp-reference/node_modules/@oh-my-pi/pi-coding-agent/src/vim/buffer.ts";
import { VimEngine } from "/root/.cache/omp-reference/node_modules/@oh-my-pi/pi-coding-agent/src/vim/engine.ts";
import { parseKeySequences } from "/root/.cache/omp-reference/node_modules/@oh-my-pi/pi-coding-agent/src/vim/parser.ts";
import { buildDetails, computeViewport, renderVimDetails } from "/root/.cache/omp-reference/node_modules/@oh-my-pi/pi-coding-agent/src/vim/render.ts";
const scenarios = JSON.parse(await Bun.file(process.argv[2]).text());
for (const sc of scenarios) {
  const buf = new VimBuffer({ absolutePath: "/x/f", displayPath: "f", lines: sc.text.split("\n"), trailingNewline: true, fingerprint: null });
  // :w saves in memory; :e FILE opens one of the scenario's files ("f" is its own text as first loaded).
  const files: Record<string, string> = { f: sc.text, ...(sc.files ?? {}) };
  const load = async (path: string) => {
    if (!(path in files)) throw new Error(`no file ${path}`);
    return { absolutePath: `/x/${path}`, displayPath: path, lines: files[path].split("\n"), trailingNewline: true, fingerprint: null };
  };
  const save = async (b: VimBuffer) => {
    files[b.displayPath] = b.lines.join("\n");
    return { loaded: { absolutePath: b.filePath, displayPath: b.displayPath, lines: [...b.lines], trailingNewline: b.trailingNewline, fingerprint: null } };
  };
  const eng = new VimEngine(buf, { beforeMutate: async () => {}, loadBuffer: load, saveBuffer: save });
  eng.viewportStart = 1;
  let err = "";
  try {
    for (const s of sc.steps) {
      if (eng.inputMode === "insert") eng.rollbackPendingInsert();
      await eng.executeTokens(parseKeySequences([s.kbd]), s.kbd);
      if (s.insert !== null && s.insert !== undefined) await eng.applyLiteralInsert(s.insert, true);
    }
  } catch (e) { err = (e as Error).message; }
  const cl = eng.buffer.cursor.line + 1, cc = eng.buffer.cursor.col + 1;
  const d = buildDetails({ file: eng.buffer.displayPath, mode: eng.getPublicMode(), cursor: { line: cl, col: cc }, totalLines: eng.buffer.lineCount(), modified: eng.buffer.modified, lines: eng.buffer.lines, viewport: computeViewport(cl, eng.buffer.lineCount(), 10, eng.viewportStart), selection: eng.getSelection(), lastCommand: eng.lastCommand, statusMessage: err || eng.statusMessage, pendingInput: eng.getPendingInput(), closed: eng.closed });
  console.log(JSON.stringify({ name: sc.name, lines: eng.buffer.lines, view: renderVimDetails(d), saved: files[eng.buffer.displayPath] }));
}
