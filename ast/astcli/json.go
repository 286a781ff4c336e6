package astcli

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// matchJSON mirrors the ast-grep CLI's --json match objects (0-based lines
// and columns, byte offsets), so results compare field by field.
type matchJSON struct {
	Text               string         `json:"text"`
	Range              jsonSpan       `json:"range"`
	File               string         `json:"file"`
	Lines              string         `json:"lines"`
	CharCount          *jsonCharCount `json:"charCount,omitempty"`
	Replacement        *string        `json:"replacement,omitempty"`
	ReplacementOffsets *jsonOffsets   `json:"replacementOffsets,omitempty"`
	Language           string         `json:"language"`
	MetaVariables      *jsonMeta      `json:"metaVariables,omitempty"`
}

// jsonCharCount counts the characters of "lines" before and after the
// match.
type jsonCharCount struct {
	Leading  int `json:"leading"`
	Trailing int `json:"trailing"`
}

// jsonOffsets is the byte range a replacement replaces.
type jsonOffsets struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// jsonSpan is a range: byte offsets and 0-based line/column positions.
type jsonSpan struct {
	ByteOffset struct {
		Start int `json:"start"`
		End   int `json:"end"`
	} `json:"byteOffset"`
	Start jsonPos `json:"start"`
	End   jsonPos `json:"end"`
}

// jsonPos is a 0-based line and column (in characters).
type jsonPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// jsonNode is a captured node.
type jsonNode struct {
	Text  string   `json:"text"`
	Range jsonSpan `json:"range"`
}

// jsonMeta holds a match's metavariables: single and multiple captures
// and transformed variables, by name.
type jsonMeta struct {
	Single      map[string]jsonNode   `json:"single"`
	Multi       map[string][]jsonNode `json:"multi"`
	Transformed map[string]string     `json:"transformed"`
}

// jsonSpanOf is the span from s to e.
func jsonSpanOf(s, e astgrep.Pos) jsonSpan {
	var sp jsonSpan
	sp.ByteOffset.Start, sp.ByteOffset.End = s.Offset, e.Offset
	sp.Start = jsonPos{Line: s.Line, Column: s.Column}
	sp.End = jsonPos{Line: e.Line, Column: e.Column}
	return sp
}

// toMatchJSON is a match as `gopi ast grep --json` prints it.
func toMatchJSON(m ast.Match) matchJSON {
	j := matchJSON{Text: m.Text, Range: jsonSpanOf(m.Start, m.End), File: m.Path, Lines: m.Lines, Language: m.Lang}
	if len(m.Captures) > 0 {
		meta := &jsonMeta{Single: map[string]jsonNode{}, Multi: map[string][]jsonNode{}, Transformed: map[string]string{}}
		for _, c := range m.Captures {
			nodes := make([]jsonNode, len(c.Nodes))
			for i, n := range c.Nodes {
				nodes[i] = jsonNode{Text: n.Text, Range: jsonSpanOf(n.Start, n.End)}
			}
			if c.Transformed {
				if len(c.Nodes) == 1 {
					meta.Transformed[c.Name] = c.Nodes[0].Text
				}
				continue
			}
			if c.Multi {
				meta.Multi[c.Name] = nodes
			} else if len(nodes) == 1 {
				meta.Single[c.Name] = nodes[0]
			}
		}
		j.MetaVariables = meta
	}
	return j
}

// toSGJSON is toMatchJSON in every detail of the ast-grep CLI's own output
// (`gopi ast run` and `scan`): its language names, the character counts
// around the match and, for a rewrite, the replacement and the range it
// replaces.
func toSGJSON(m ast.Match) matchJSON {
	j := toMatchJSON(m)
	j.Language = ast.DisplayName(m.Lang)
	// Columns count characters: the match starts after Column of them.
	lead := 0
	for n := 0; n < m.Start.Column && lead < len(m.Lines); n++ {
		_, size := utf8.DecodeRuneInString(m.Lines[lead:])
		lead += size
	}
	tail := min(lead+len(m.Text), len(m.Lines))
	j.CharCount = &jsonCharCount{Leading: m.Start.Column, Trailing: utf8.RuneCountInString(m.Lines[tail:])}
	if m.Edit != nil {
		r := m.Edit.Replacement
		j.Replacement = &r
		j.ReplacementOffsets = &jsonOffsets{Start: m.Edit.Start, End: m.Edit.End}
	}
	return j
}

// scanJSON is a finding in --json output: the match plus its rule.
type scanJSON struct {
	matchJSON
	RuleID   string      `json:"ruleId"`
	Severity string      `json:"severity"`
	Note     *string     `json:"note"` // null when the rule has none, as in ast-grep
	Message  string      `json:"message"`
	Labels   []jsonLabel `json:"labels"`
}

// jsonLabel marks a part of a finding; the match itself is the
// primary one.
type jsonLabel struct {
	Text    string   `json:"text"`
	Range   jsonSpan `json:"range"`
	Message *string  `json:"message,omitempty"`
	Style   string   `json:"style"`
}

// toScanJSON is a finding in ast-grep's --json form.
func toScanJSON(f ast.Finding) scanJSON {
	item := scanJSON{matchJSON: toSGJSON(f.Match), RuleID: f.Rule.ID, Severity: f.Rule.Severity, Message: f.Message(),
		Labels: sgLabels(f)}
	if f.Rule.Note != "" {
		note := f.Rule.Note
		item.Note = &note
	}
	return item
}

// sgLabels are a finding's labels as ast-grep gives them: those of the
// rule's `labels:` section (by metavariable name; ast-grep's order varies),
// or else the match as the primary label and the nodes a relational rule
// matched (inside, has, ...; the rule engine's "secondary" capture) as
// secondary ones.
func sgLabels(f ast.Finding) []jsonLabel {
	m := f.Match
	byName := func(name string) []astgrep.Node {
		for _, c := range m.Captures {
			if c.Name == name && !c.Transformed {
				return c.Nodes
			}
		}
		return nil
	}
	if len(f.Rule.Labels) > 0 {
		var out []jsonLabel
		for _, l := range f.Rule.Labels {
			nodes := byName(l.Var)
			if len(nodes) == 0 {
				continue
			}
			first, last := nodes[0], nodes[len(nodes)-1]
			text := first.Text
			if lo, hi := first.Start.Offset-m.Start.Offset, last.End.Offset-m.Start.Offset; len(nodes) > 1 && lo >= 0 && lo <= hi && hi <= len(m.Text) {
				text = m.Text[lo:hi]
			}
			lab := jsonLabel{Text: text, Range: jsonSpanOf(first.Start, last.End), Style: l.Style}
			if l.HasMessage {
				msg := l.Message
				lab.Message = &msg
			}
			out = append(out, lab)
		}
		return out
	}
	out := []jsonLabel{{Text: m.Text, Range: jsonSpanOf(m.Start, m.End), Style: "primary"}}
	for _, n := range byName("secondary") {
		out = append(out, jsonLabel{Text: n.Text, Range: jsonSpanOf(n.Start, n.End), Style: "secondary"})
	}
	return out
}

// writeJSONStyle writes items as ast-grep's --json styles do: pretty (an
// indented array, "[]" when empty), compact (an array on one line) or
// stream (one object per line, nothing when empty).
func writeJSONStyle(w io.Writer, style string, items []any) error {
	if style == "stream" {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, it := range items {
			if err := enc.Encode(it); err != nil {
				return err
			}
		}
		return nil
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if style != "pretty" || len(items) == 0 {
		return enc.Encode(items)
	}
	// As ast-grep: "[", then each object indented by two spaces per level
	// from column 0, separated by ",", then "]".
	enc.SetIndent("", "  ")
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, it := range items {
		var one bytes.Buffer
		e := json.NewEncoder(&one)
		e.SetEscapeHTML(false)
		e.SetIndent("", "  ")
		if err := e.Encode(it); err != nil {
			return err
		}
		b.Write(bytes.TrimRight(one.Bytes(), "\n"))
		if i < len(items)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	_, err := w.Write(b.Bytes())
	return err
}
