package rure

// Compile flags for CompileOptions. The values are fixed by the rure C API.
const (
	// FlagCaseI makes the pattern case-insensitive, like (?i).
	FlagCaseI uint32 = 1 << 0
	// FlagMulti makes ^ and $ match at line boundaries, like (?m).
	FlagMulti uint32 = 1 << 1
	// FlagDotNL lets . match \n, like (?s).
	FlagDotNL uint32 = 1 << 2
	// FlagSwapGreed makes x* lazy and x*? greedy, like (?U).
	FlagSwapGreed uint32 = 1 << 3
	// FlagSpace ignores whitespace and allows # comments, like (?x).
	FlagSpace uint32 = 1 << 4
	// FlagUnicode enables Unicode classes and case folding, like (?u).
	FlagUnicode uint32 = 1 << 5
	// FlagDefault is what Compile uses: Unicode on, everything else off.
	FlagDefault = FlagUnicode
)
