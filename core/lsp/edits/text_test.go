package edits

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// te builds a text edit from 0-based line and character numbers.
func te(l1, c1, l2, c2 int, text string) protocol.TextEdit {
	return protocol.TextEdit{Range: protocol.Range{
		Start: protocol.Position{Line: l1, Character: c1},
		End:   protocol.Position{Line: l2, Character: c2},
	}, NewText: text}
}

func TestApplyText(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		edits   []protocol.TextEdit
		want    string
		wantErr string
	}{
		{name: "one word", in: "func Old() {}\n", edits: []protocol.TextEdit{te(0, 5, 0, 8, "New")}, want: "func New() {}\n"},
		{name: "several lines, edits out of order",
			in:    "a Old\nb Old\nc Old\n",
			edits: []protocol.TextEdit{te(2, 2, 2, 5, "New"), te(0, 2, 0, 5, "New"), te(1, 2, 1, 5, "X")},
			want:  "a New\nb X\nc New\n"},
		{name: "multi-line replacement", in: "one\ntwo\nthree\n", edits: []protocol.TextEdit{te(0, 1, 2, 2, "N\nM")}, want: "oN\nMree\n"},
		{name: "CRLF kept, new line breaks become CRLF",
			in:    "package a\r\n\r\nfunc Old() {}\r\n",
			edits: []protocol.TextEdit{te(2, 5, 2, 8, "New"), te(3, 0, 3, 0, "// added\nfunc B() {}\n")},
			want:  "package a\r\n\r\nfunc New() {}\r\n// added\r\nfunc B() {}\r\n"},
		{name: "CRLF: a character past the line's end stops before the \\r",
			in:    "ab\r\ncd\r\n",
			edits: []protocol.TextEdit{te(0, 99, 0, 99, "!")},
			want:  "ab!\r\ncd\r\n"},
		{name: "CRLF: CRLF in the new text stays one break",
			in:    "x\r\ny\r\n",
			edits: []protocol.TextEdit{te(1, 0, 1, 0, "w\r\n")},
			want:  "x\r\nw\r\ny\r\n"},
		{name: "LF file keeps LF", in: "x\ny\n", edits: []protocol.TextEdit{te(1, 0, 1, 0, "w\n")}, want: "x\nw\ny\n"},
		{name: "BOM kept, positions count after it",
			in:    "\ufeffpackage a\nvar Old = 1\n",
			edits: []protocol.TextEdit{te(0, 0, 0, 7, "package"), te(1, 4, 1, 7, "New")},
			want:  "\ufeffpackage a\nvar New = 1\n"},
		{name: "BOM and CRLF", in: "\ufeffa\r\nOld\r\n", edits: []protocol.TextEdit{te(1, 0, 1, 3, "N\nN")}, want: "\ufeffa\r\nN\r\nN\r\n"},
		{name: "UTF-16 columns after an emoji",
			// 😀 is two UTF-16 units, é one: "Old" starts at unit 13.
			in:    "s := \"😀é\" + Old\n",
			edits: []protocol.TextEdit{te(0, 13, 0, 16, "New")},
			want:  "s := \"😀é\" + New\n"},
		{name: "CJK and emoji replaced by position", in: "日本😀x\n", edits: []protocol.TextEdit{te(0, 2, 0, 4, "🎉")}, want: "日本🎉x\n"},
		{name: "inserts at one place keep the server's order",
			in:    "ab",
			edits: []protocol.TextEdit{te(0, 1, 0, 1, "1"), te(0, 1, 0, 1, "2"), te(0, 1, 0, 1, "3")},
			want:  "a123b"},
		{name: "an insert before a replacement starting at its place",
			in:    "abc",
			edits: []protocol.TextEdit{te(0, 1, 0, 2, "X"), te(0, 1, 0, 1, "i")},
			want:  "aiXc"},
		{name: "touching replacements", in: "abcd", edits: []protocol.TextEdit{te(0, 0, 0, 2, "X"), te(0, 2, 0, 4, "Y")}, want: "XY"},
		{name: "insert at the end of the document", in: "a\n", edits: []protocol.TextEdit{te(1, 0, 1, 0, "b\n")}, want: "a\nb\n"},
		{name: "empty document", in: "", edits: []protocol.TextEdit{te(0, 0, 0, 0, "package a\n")}, want: "package a\n"},
		{name: "no edits", in: "same\r\n", want: "same\r\n"},
		{name: "overlapping edits", in: "abcdef", edits: []protocol.TextEdit{te(0, 0, 0, 3, "X"), te(0, 2, 0, 5, "Y")}, wantErr: "edits 1 and 2 overlap (1:1-1:4 and 1:3-1:6)"},
		{name: "one edit inside another", in: "abcdef", edits: []protocol.TextEdit{te(0, 2, 0, 3, "Y"), te(0, 0, 0, 6, "X")}, wantErr: "overlap"},
		{name: "same range twice", in: "abc", edits: []protocol.TextEdit{te(0, 0, 0, 1, "X"), te(0, 0, 0, 1, "Y")}, wantErr: "overlap"},
		{name: "line past the end", in: "a\nb\n", edits: []protocol.TextEdit{te(5, 0, 5, 1, "X")}, wantErr: "edit 1 starts outside the document"},
		{name: "end past the end", in: "a\nb\n", edits: []protocol.TextEdit{te(0, 0, 9, 0, "X")}, wantErr: "edit 1 ends outside the document"},
		{name: "end before start", in: "abc\n", edits: []protocol.TextEdit{te(0, 2, 0, 1, "X")}, wantErr: "edit 1 ends (1:2) before it starts (1:3)"},
		{name: "negative position", in: "abc\n", edits: []protocol.TextEdit{te(0, -1, 0, 1, "X")}, wantErr: "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ApplyText([]byte(tt.in), tt.edits)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ApplyText error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ApplyText: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("ApplyText = %q, want %q", got, tt.want)
			}
		})
	}
}

// BenchmarkApplyTextRename renames an identifier at 500 places spread
// over a 20,000-line file (about 1 MB), as gopls would send them.
func BenchmarkApplyTextRename(b *testing.B) {
	var sb strings.Builder
	var edits []protocol.TextEdit
	for i := range 20000 {
		sb.WriteString("\tvalue := computeSomething(input, 😀, other) // a comment\r\n")
		if i%40 == 0 {
			edits = append(edits, te(i, 10, i, 26, "computeOther"))
		}
	}
	content := []byte(sb.String())
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		if _, err := ApplyText(content, edits); err != nil {
			b.Fatal(err)
		}
	}
}
