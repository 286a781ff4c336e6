// Writes omp-edge-vectors.jsonl: omp 14.9.9's computeLineHash (the installed package) on lines that
// exercise JavaScript white space, newer Unicode letters, numbers outside Nd and invalid UTF-8 (given
// as bytes, decoded as omp reads files). Run: ~/.cache/omp-reference/node_modules/.bin/bun gen-omp-edge.ts
import { computeLineHash } from "/root/.cache/omp-reference/node_modules/@oh-my-pi/pi-coding-agent/src/hashline/hash.ts";
const cases: Uint8Array[] = [];
const enc = new TextEncoder();
const strs = ["x\u0085", "}\u0085", "x\ufeff", "}\ufeff", "\ufeff", "\u0085", "²", "}²", "Ⅻ", "½", "\u1c89", "\u{11380}", "}\u180e", "a\u00a0\u3000\u2028", "}\u2029", "\u205f}", "a\rb\r", "\r\r}\r ", "}\t\v\f ", "\u200b", "}\u200b",
  "x".repeat(15), "x".repeat(16), "}".repeat(17), "-".repeat(33), "emoji 🎉", "🎉", "a\u0000", "\u0000"];
for (const s of strs) cases.push(enc.encode(s));
const raw = [[0xff], [0x7d, 0xff], [0x61, 0xe2, 0x82, 0x62], [0xe2, 0x82], [0x7d, 0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xe0, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0x80, 0x7d], [0x7d, 0x20, 0xc2], [0xc2, 0xa0, 0xff], [0xf0, 0x90, 0x7d]];
for (const r of raw) cases.push(new Uint8Array(r));
const dec = new TextDecoder();
for (const c of cases) for (const n of [1, 2, 41, 1000, 70000]) {
  console.log(JSON.stringify({ line_number: n, hex: Buffer.from(c).toString("hex"), hash: computeLineHash(n, dec.decode(c)) }));
}
