package edits

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

func TestPreview(t *testing.T) {
	display := func(abs string) string { return strings.TrimPrefix(abs, "/w/") }
	u := func(name string) protocol.DocumentURI { return protocol.FileURI("/w/" + name) }
	tests := []struct {
		name string
		edit protocol.WorkspaceEdit
		want string
	}{
		{name: "changes, in path order",
			edit: protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
				u("b.go"): {te(4, 9, 4, 12, "New")},
				u("a.go"): {te(2, 5, 2, 8, "New"), te(9, 0, 9, 0, "// line one\n// line two\n")},
			}},
			want: `a.go: 2 edits
  line 3:6 → "New"
  line 10:1 → "// line one\n// line two\n"
b.go: 1 edit
  line 5:10 → "New"`},
		{name: "document changes win over changes, resource operations",
			edit: protocol.WorkspaceEdit{
				Changes: map[protocol.DocumentURI][]protocol.TextEdit{u("ignored.go"): {te(0, 0, 0, 0, "x")}},
				DocumentChanges: []protocol.DocumentChange{
					createOf(u("new.go"), nil),
					editOf(u("new.go"), nil, te(0, 0, 0, 0, "package n\n")),
					renameOf(u("old.go"), u("sub/old.go"), nil),
					deleteOf(u("gone.go"), nil),
					editOf("untitled:Untitled-1", nil),
				},
			},
			want: `CREATE: new.go
new.go: 1 edit
  line 1:1 → "package n\n"
RENAME: old.go → sub/old.go
DELETE: gone.go
untitled:Untitled-1: 0 edits`},
		{name: "long replacement cut",
			edit: protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
				u("a.go"): {te(0, 0, 0, 0, strings.Repeat("é", 60))},
			}},
			want: "a.go: 1 edit\n  line 1:1 → \"" + strings.Repeat("é", 50) + "…\""},
		{name: "empty", edit: protocol.WorkspaceEdit{}, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Preview(tt.edit, display); got != tt.want {
				t.Errorf("Preview =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestPreviewCapsEditLines(t *testing.T) {
	var edits []protocol.TextEdit
	for i := range 25 {
		edits = append(edits, te(i, 0, i, 3, "New"))
	}
	got := Preview(protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{protocol.FileURI("/w/a.go"): edits}}, nil)
	lines := strings.Split(got, "\n")
	if len(lines) != 1+previewEditsPerFile+1 || lines[0] != "/w/a.go: 25 edits" || lines[len(lines)-1] != fmt.Sprintf("  … %d more", 25-previewEditsPerFile) {
		t.Errorf("Preview =\n%s", got)
	}
}
