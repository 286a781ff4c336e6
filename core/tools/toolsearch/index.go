package toolsearch

import (
	"errors"
	"math"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// BM25 parameters and field weights, as omp ranks hidden tools.
const (
	bm25K1     = 1.2
	bm25B      = 0.75
	bm25Delta  = 1.0 // BM25+: every matching term adds at least this much
	weightName = 6
	weightLbl  = 4
	weightMCP  = 4 // the tool's own name on its MCP server
	weightSrv  = 2
	weightSum  = 2
	weightKey  = 1 // each input schema property name
)

// SummaryLen is how much of a description stands in for a tool's summary
// when the tool has none of its own.
const SummaryLen = 200

// ErrNoTerms is the error of a query without a letter or digit.
var ErrNoTerms = errors.New("query must contain at least one letter or number; describe the capability you need, e.g. \"kubernetes pod\"")

// Doc is what the index knows of one hidden tool.
type Doc struct {
	Name       string   // the tool's name, as the model calls it
	Label      string   // its human-facing title
	Summary    string   // a short description
	Server     string   // the MCP server it comes from; "" for a built-in
	MCPName    string   // its name on that server; "" for a built-in
	SchemaKeys []string // its input properties, sorted
}

// Match is one ranked search result.
type Match struct {
	Doc   Doc
	Score float64
}

// document is a Doc with its weighted term frequencies.
type document struct {
	doc    Doc
	terms  map[string]float64
	length float64
}

// Index is a BM25 index over hidden tools. It is immutable once built.
type Index struct {
	docs   []document
	avgLen float64
	df     map[string]int
}

// NewIndex indexes docs.
func NewIndex(docs []Doc) *Index {
	ix := &Index{docs: make([]document, len(docs)), df: map[string]int{}}
	total := 0.0
	for i, d := range docs {
		doc := document{doc: d, terms: map[string]float64{}}
		add := func(text string, w float64) {
			for _, tok := range Tokenize(text) {
				doc.terms[tok] += w
				doc.length += w
			}
		}
		add(d.Name, weightName)
		add(d.Label, weightLbl)
		add(d.Server, weightSrv)
		add(d.MCPName, weightMCP)
		add(d.Summary, weightSum)
		for _, k := range d.SchemaKeys {
			add(k, weightKey)
		}
		for tok := range doc.terms {
			ix.df[tok]++
		}
		total += doc.length
		ix.docs[i] = doc
	}
	ix.avgLen = 1
	if len(docs) > 0 && total > 0 {
		ix.avgLen = total / float64(len(docs))
	}
	return ix
}

// Len is the number of tools indexed.
func (ix *Index) Len() int { return len(ix.docs) }

// Search ranks the indexed tools against query: best score first, ties
// by name; tools that match no term are left out. skip names tools not
// to return (already selected). At most limit matches are returned.
func (ix *Index) Search(query string, limit int, skip map[string]bool) ([]Match, error) {
	tokens := Tokenize(query)
	if len(tokens) == 0 {
		return nil, ErrNoTerms
	}
	counts := map[string]float64{}
	var order []string
	for _, t := range tokens {
		if counts[t] == 0 {
			order = append(order, t)
		}
		counts[t]++
	}
	n := float64(len(ix.docs))
	var out []Match
	for _, d := range ix.docs {
		if skip[d.doc.Name] {
			continue
		}
		score := 0.0
		for _, t := range order {
			tf := d.terms[t]
			if tf == 0 {
				continue
			}
			df := float64(ix.df[t])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			norm := bm25K1 * (1 - bm25B + bm25B*d.length/ix.avgLen)
			score += counts[t] * idf * (tf*(bm25K1+1)/(tf+norm) + bm25Delta)
		}
		if score > 0 {
			out = append(out, Match{Doc: d.doc, Score: score})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Doc.Name < out[j].Doc.Name
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Tokenize splits text into lower-case search terms: accents dropped,
// camelCase and ACRONYMWord boundaries split, anything that is not a
// letter or digit a separator.
func Tokenize(text string) []string {
	var b strings.Builder
	runes := []rune(norm.NFKD.String(text))
	// drop combining marks first so boundaries see the base letters
	kept := runes[:0]
	for _, r := range runes {
		if !unicode.Is(unicode.M, r) {
			kept = append(kept, r)
		}
	}
	for i, r := range kept {
		if i > 0 && unicode.IsUpper(r) {
			prev := kept[i-1]
			switch {
			case unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.Is(unicode.N, prev):
				b.WriteByte(' ') // fooBar, v2Beta
			case unicode.IsUpper(prev) && i+1 < len(kept) && unicode.IsLower(kept[i+1]):
				b.WriteByte(' ') // MCPTool: the last capital starts a word
			}
		}
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteByte(' ')
		}
	}
	return strings.Fields(b.String())
}
