package hashline

import "unicode"

// jsNewerLettersDigits holds the letters and digits (Unicode categories L
// and N) that Bun 1.4.5, omp 14.9.9's runtime, knows and Go's unicode
// package (Unicode 15.0) does not yet: characters added by Unicode 16 and
// 17. With them, hasAlnum picks the same seed for a line as omp's
// /[\p{L}\p{N}]/u does. TestLettersDigitsAreBuns checks every code point
// against testdata/js-letters-digits.json, the ranges that regular
// expression matches in Bun (testdata/gen-js-letters-digits.ts writes it);
// a newer Go makes some entries redundant, never wrong.
var jsNewerLettersDigits = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x088f, Hi: 0x088f, Stride: 1},
		{Lo: 0x0c5c, Hi: 0x0c5c, Stride: 1},
		{Lo: 0x0cdc, Hi: 0x0cdc, Stride: 1},
		{Lo: 0x1c89, Hi: 0x1c8a, Stride: 1},
		{Lo: 0xa7cb, Hi: 0xa7cf, Stride: 1},
		{Lo: 0xa7d2, Hi: 0xa7d2, Stride: 1},
		{Lo: 0xa7d4, Hi: 0xa7d4, Stride: 1},
		{Lo: 0xa7da, Hi: 0xa7dc, Stride: 1},
		{Lo: 0xa7f1, Hi: 0xa7f1, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x105c0, Hi: 0x105f3, Stride: 1},
		{Lo: 0x10940, Hi: 0x10959, Stride: 1},
		{Lo: 0x10d40, Hi: 0x10d65, Stride: 1},
		{Lo: 0x10d6f, Hi: 0x10d85, Stride: 1},
		{Lo: 0x10ec2, Hi: 0x10ec7, Stride: 1},
		{Lo: 0x11380, Hi: 0x11389, Stride: 1},
		{Lo: 0x1138b, Hi: 0x1138b, Stride: 1},
		{Lo: 0x1138e, Hi: 0x1138e, Stride: 1},
		{Lo: 0x11390, Hi: 0x113b5, Stride: 1},
		{Lo: 0x113b7, Hi: 0x113b7, Stride: 1},
		{Lo: 0x113d1, Hi: 0x113d1, Stride: 1},
		{Lo: 0x113d3, Hi: 0x113d3, Stride: 1},
		{Lo: 0x116d0, Hi: 0x116e3, Stride: 1},
		{Lo: 0x11bc0, Hi: 0x11be0, Stride: 1},
		{Lo: 0x11bf0, Hi: 0x11bf9, Stride: 1},
		{Lo: 0x11db0, Hi: 0x11ddb, Stride: 1},
		{Lo: 0x11de0, Hi: 0x11de9, Stride: 1},
		{Lo: 0x13460, Hi: 0x143fa, Stride: 1},
		{Lo: 0x16100, Hi: 0x1611d, Stride: 1},
		{Lo: 0x16130, Hi: 0x16139, Stride: 1},
		{Lo: 0x16d40, Hi: 0x16d6c, Stride: 1},
		{Lo: 0x16d70, Hi: 0x16d79, Stride: 1},
		{Lo: 0x16ea0, Hi: 0x16eb8, Stride: 1},
		{Lo: 0x16ebb, Hi: 0x16ed3, Stride: 1},
		{Lo: 0x16ff2, Hi: 0x16ff6, Stride: 1},
		{Lo: 0x187f8, Hi: 0x187ff, Stride: 1},
		{Lo: 0x18cff, Hi: 0x18cff, Stride: 1},
		{Lo: 0x18d09, Hi: 0x18d1e, Stride: 1},
		{Lo: 0x18d80, Hi: 0x18df2, Stride: 1},
		{Lo: 0x1ccf0, Hi: 0x1ccf9, Stride: 1},
		{Lo: 0x1e5d0, Hi: 0x1e5ed, Stride: 1},
		{Lo: 0x1e5f0, Hi: 0x1e5fa, Stride: 1},
		{Lo: 0x1e6c0, Hi: 0x1e6de, Stride: 1},
		{Lo: 0x1e6e0, Hi: 0x1e6e2, Stride: 1},
		{Lo: 0x1e6e4, Hi: 0x1e6e5, Stride: 1},
		{Lo: 0x1e6e7, Hi: 0x1e6ed, Stride: 1},
		{Lo: 0x1e6f0, Hi: 0x1e6f4, Stride: 1},
		{Lo: 0x1e6fe, Hi: 0x1e6ff, Stride: 1},
		{Lo: 0x2b73a, Hi: 0x2b73f, Stride: 1},
		{Lo: 0x2cea2, Hi: 0x2cead, Stride: 1},
		{Lo: 0x2ebf0, Hi: 0x2ee5d, Stride: 1},
		{Lo: 0x323b0, Hi: 0x33479, Stride: 1},
	},
}
