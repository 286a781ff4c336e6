// Writes omp-lastline.json: what omp 14.9.9 (the installed package) shows
// when reading files that end with or without a line break, are empty, CRLF,
// end in "\n\n" or start with a byte-order mark, and what its hashline edits
// make of ops on the last lines, BOF and EOF. The read rows are formatted
// from the file decoded as omp's read decodes it (Buffer utf-8, mark kept);
// edits get the text as omp's edit loads it (Bun text(): mark dropped).
// Run (in this directory): ~/.cache/omp-reference/node_modules/.bin/bun gen-omp-lastline.ts
const S = "/root/.cache/omp-reference/node_modules/@oh-my-pi/pi-coding-agent/src/";
const { formatHashLines, computeLineHash } = await import(S + "hashline/hash.ts");
const { parseHashline } = await import(S + "hashline/parser.ts");
const { applyHashlineEdits } = await import(S + "hashline/apply.ts");
const { stripBom, normalizeToLF, detectLineEnding, restoreLineEndings } = await import(S + "edit/normalize.ts");
const files = ["a\nb\n", "a\nb", "", "a\r\nb\r\n", "a\nb\n\n", "\ufeffa\nb\n", "\n", "x\n\ny\n"];
const out: unknown[] = [];
for (const file of files) {
  const bytes = new TextEncoder().encode(file);
  const shown = Buffer.from(bytes).toString("utf-8");
  const lines = shown.split("\n");
  const ref = (n: number) => `${n}${computeLineHash(n, lines[n - 1])}`;
  const n = lines.length;
  const ops = [`+ BOF\n~c`, `+ EOF\n~c`, `+ BOF\n~c\n+ EOF\n~d`];
  for (const k of new Set([1, Math.max(1, n - 1), n])) {
    ops.push(`< ${ref(k)}\n~c`, `+ ${ref(k)}\n~c`, `= ${ref(k)}..${ref(k)}\n~c`, `- ${ref(k)}..${ref(k)}`, `= ${ref(k)}..${ref(k)}\n`);
  }
  if (n > 1) ops.push(`= ${ref(n - 1)}..${ref(n)}\n~c`, `- ${ref(n - 1)}..${ref(n)}`, `- ${ref(n)}..${ref(n)}\n+ EOF\n~c`);
  const apply = (diff: string) => {
    const { bom, text } = stripBom(new TextDecoder().decode(bytes));
    const norm = normalizeToLF(text);
    try {
      const r = applyHashlineEdits(norm, parseHashline(diff));
      return { result: bom + restoreLineEndings(r.lines, detectLineEnding(text)) };
    } catch (e) {
      return { error: (e as Error).message.split("\n")[0] };
    }
  };
  // With a byte-order mark, omp's edit knows line 1 only by the anchor of
  // the line without it ("plain": the result with that anchor instead).
  const markless = `1${computeLineHash(1, lines[0].replace(/^\ufeff/, ""))}`;
  const cases = ops.map(diff => {
    const c: Record<string, unknown> = { diff, ...apply(diff) };
    if (shown.startsWith("\ufeff") && diff.includes(ref(1))) c.plain = apply(diff.replaceAll(ref(1), markless));
    return c;
  });
  out.push({ file, read: formatHashLines(shown, 1), cases });
}
await Bun.write("omp-lastline.json", JSON.stringify(out, null, 1) + "\n");
