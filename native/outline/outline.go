package outline

import (
	"errors"
	"path/filepath"
	"strings"
)

// ErrUnsupported is returned for a language this package cannot parse.
var ErrUnsupported = errors.New("outline: language not supported")

// ErrSyntax is returned when the source does not parse cleanly; a summary
// of a broken file could hide where it is broken.
var ErrSyntax = errors.New("outline: source has syntax errors")

// Span is a run of whole lines, 1-based and inclusive.
type Span struct {
	Start, End int
}

// Lines returns how many lines the span covers.
func (s Span) Lines() int { return s.End - s.Start + 1 }

// languages maps file extensions to the grammar names Bodies accepts.
var languages = map[string]string{
	".go":  "go",
	".py":  "python",
	".pyi": "python",
	".js":  "javascript",
	".jsx": "javascript",
	".mjs": "javascript",
	".cjs": "javascript",
	".ts":  "typescript",
	".mts": "typescript",
	".cts": "typescript",
	".tsx": "tsx",
	".rs":  "rust",
}

// LanguageOf returns the grammar name for path's extension, or "" when
// the extension is not one this package supports.
func LanguageOf(path string) string {
	return languages[strings.ToLower(filepath.Ext(path))]
}

// functionKinds are, per grammar, the node kinds whose "body" field is
// elided. Other nodes (classes, impls, modules) are kept and searched for
// functions inside them.
var functionKinds = map[string]map[string]bool{
	"go":         set("function_declaration", "method_declaration", "func_literal"),
	"python":     set("function_definition"),
	"javascript": set("function_declaration", "generator_function_declaration", "function", "function_expression", "generator_function", "method_definition", "arrow_function"),
	"typescript": set("function_declaration", "generator_function_declaration", "function", "function_expression", "generator_function", "method_definition", "arrow_function"),
	"tsx":        set("function_declaration", "generator_function_declaration", "function", "function_expression", "generator_function", "method_definition", "arrow_function"),
	"rust":       set("function_item"),
}

func set(kinds ...string) map[string]bool {
	m := make(map[string]bool, len(kinds))
	for _, k := range kinds {
		m[k] = true
	}
	return m
}

// bodySpan returns the lines of a function body that a summary may drop,
// given the body node's first and last rows (0-based) and whether the
// body is delimited by braces. For a braced body the lines strictly
// between the opening and closing brace lines go; for an indented
// (Python) body every line of the block goes, provided it starts below
// the signature. ok is false when nothing can be dropped.
func bodySpan(sigRow, startRow, endRow int, braced bool) (Span, bool) {
	if braced {
		if endRow-startRow < 2 {
			return Span{}, false
		}
		return Span{startRow + 2, endRow}, true // rows startRow+1..endRow-1, 1-based
	}
	if startRow <= sigRow {
		return Span{}, false
	}
	return Span{startRow + 1, endRow + 1}, true
}
