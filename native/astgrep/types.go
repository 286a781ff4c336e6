package astgrep

import (
	"errors"
	"fmt"
	"time"
)

// ErrUnavailable is returned by Compile in builds without cgo.
var ErrUnavailable = errors.New("AST search needs the native library, which this build (without cgo) does not have")

// ErrCancelled and ErrTimeout are returned by Search when it stopped early.
var (
	ErrCancelled = errors.New("Aborted: Signal")
	ErrTimeout   = errors.New("Aborted: Timeout")
)

// Strictness selects how exactly a pattern must match (ast-grep's levels).
type Strictness uint32

// Strictness levels; Smart is ast-grep's default.
const (
	Smart Strictness = iota
	Cst
	Ast
	Relaxed
	Signature
	Template
)

// ParseStrictness maps a level name ("smart", "cst", ...) to a Strictness.
func ParseStrictness(s string) (Strictness, error) {
	for i, n := range strictnessNames {
		if n == s {
			return Strictness(i), nil
		}
	}
	return 0, fmt.Errorf("unknown strictness %q: use one of cst, smart, ast, relaxed, signature, template", s)
}

var strictnessNames = []string{"smart", "cst", "ast", "relaxed", "signature", "template"}

// String returns the level's name.
func (s Strictness) String() string {
	if int(s) < len(strictnessNames) {
		return strictnessNames[s]
	}
	return fmt.Sprintf("Strictness(%d)", uint32(s))
}

// Rule is one pattern, optionally with a rewrite template, or one rule
// of ast-grep's rule engine (Config).
type Rule struct {
	Pattern    string
	Rewrite    string
	HasRewrite bool // Rewrite is used (an empty Rewrite deletes the match)
	// Config, when not empty, is an ast-grep rule document (YAML or JSON,
	// as `sg scan` reads one: rule, constraints, utils, transform,
	// rewriters, fix and the metadata keys; its language must be the
	// matcher's) that ast-grep's own rule engine runs, with every key of
	// it: kind, inside, has, not, all, any, precedes, follows, matches,
	// nthChild, range... Pattern then only names the rule (in matches and
	// errors); Rewrite, HasRewrite and the strictness do not apply: with
	// Options.Edits, the edit of a match is the document's fix (the first,
	// for a list) over the range `sg scan --update-all` replaces. The
	// literal prefilter uses only the plain-string patterns the matched
	// node itself must match (rule.pattern, those in rule.all).
	Config string
}

// CompileError reports a rule that failed to compile.
type CompileError struct {
	Lang    string
	Rule    int // index into the rules; -1 when not rule specific
	Pattern string
	// Config: the failing rule is a rule document (Rule.Config).
	Config  bool
	Message string
}

// Error returns the message.
func (e *CompileError) Error() string {
	switch {
	case e.Rule < 0:
		return e.Message
	case e.Config:
		return fmt.Sprintf("invalid rule for %s: %s", e.Lang, e.Message)
	}
	return fmt.Sprintf("invalid pattern %q for %s: %s", e.Pattern, e.Lang, e.Message)
}

// Input is one item of a search batch: a file Rust reads (Path) or a
// buffer (Data != nil, Path is then only its name).
type Input struct {
	Path string
	Data []byte
}

// Options tune one Search call.
type Options struct {
	Captures    bool          // report captured metavariables
	Edits       bool          // compute the edits of rules with a rewrite
	NoPrefilter bool          // parse even files the literal filter rules out
	MaxFileSize int64         // files larger than this are reported TooLarge; 0: no limit
	Timeout     time.Duration // 0: none
	Cancel      *Canceller    // nil: not cancellable
	// Cache, when not nil, keeps the parsed tree of every file read from
	// disk in that parse cache and reuses cached trees (see ParseCache).
	Cache *ParseCache
}

// Status tells how far the search of one input got.
type Status uint8

// Status values (fixed by the native wire format).
const (
	Searched Status = iota
	Skipped         // the literal prefilter proved no rule can match
	ReadError
	Binary
	NotUTF8
	TooLarge
	ParseFailed
	Stopped // cancelled or timed out before done
)

// String returns a short name.
func (s Status) String() string {
	names := []string{"searched", "skipped", "read error", "binary", "not UTF-8", "too large", "parse failed", "stopped"}
	if int(s) < len(names) {
		return names[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Pos is a position: 0-based line, 0-based column in characters, byte
// offset.
type Pos struct {
	Line, Column int
	Offset       int
}

// Node is one captured node.
type Node struct {
	Start, End Pos
	Text       string
}

// Capture is a captured metavariable; Multi for $$$NAME (Nodes may then
// be empty).
type Capture struct {
	Name  string
	Multi bool
	// Transformed: a variable of a rule document's transform; its one
	// node has only Text (no position).
	Transformed bool
	Nodes       []Node
}

// Edit replaces source bytes [Start, End) with Replacement.
type Edit struct {
	Start, End  int
	Replacement string
}

// Match is one match of a rule.
type Match struct {
	Rule       int
	Start, End Pos
	Text       string
	Lines      string // the whole source lines the match touches
	Captures   []Capture
	Edit       *Edit // set for rewrite rules when Options.Edits
}

// FileResult is the outcome for one input, in input order.
type FileResult struct {
	Status      Status
	SyntaxError bool   // the tree has error nodes (the file was still searched)
	Message     string // error text, or where the first syntax error is
	Matches     []Match
}

// CacheStats are the parse cache's counters.
type CacheStats struct {
	Entries int64 // files with a cached tree or filter record
	Bytes   int64 // estimated memory held
	Hits    int64 // lookups answered from the cache
	Misses  int64 // lookups that had to read the file
}

// ParseInfo describes one parse of a rule: its root node kind and the
// literal tokens the prefilter looks for (identifiers, which no word
// character may follow in the source, are shown as NAME\b).
type ParseInfo struct {
	Rule     int
	RootKind string
	Literals []string
}
