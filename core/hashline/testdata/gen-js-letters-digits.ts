// Writes js-letters-digits.json: the inclusive code point ranges that /[\p{L}\p{N}]/u matches in Bun (omp
// 14.9.9's runtime, installed by the shared omp-reference.sh). jsunicode.go holds the ranges among them that
// Go's unicode tables lack. Run: ~/.cache/omp-reference/node_modules/.bin/bun gen-js-letters-digits.ts
const letterOrDigit = /[\p{L}\p{N}]/u;
const ranges: [number, number][] = [];
let start = -1;
for (let c = 0; c <= 0x110000; c++) {
	const match = c <= 0x10ffff && !(c >= 0xd800 && c <= 0xdfff) && letterOrDigit.test(String.fromCodePoint(c));
	if (match && start < 0) start = c;
	if (!match && start >= 0) {
		ranges.push([start, c - 1]);
		start = -1;
	}
}
console.log(JSON.stringify(ranges));
