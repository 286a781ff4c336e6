package protocol

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

func TestFileURIRoundTrip(t *testing.T) {
	for _, p := range []string{"/tmp/a.go", "/tmp/with space/é #?%.go", "/"} {
		u := FileURI(p)
		got, err := u.Path()
		if err != nil || got != filepath.Clean(p) {
			t.Errorf("%q → %q → %q, %v", p, u, got, err)
		}
	}
	if u := FileURI("/tmp/with space/a#b.go"); u != "file:///tmp/with%20space/a%23b.go" {
		t.Errorf("URI = %q", u)
	}
}

func TestPathRefusesWhatIsNotALocalFile(t *testing.T) {
	for _, u := range []DocumentURI{"untitled:Untitled-1", "file://server/share/x", "file:relative", "%zz", "https://example.com/a.go", "file://"} {
		if p, err := u.Path(); err == nil {
			t.Errorf("%q → %q, want an error", u, p)
		}
	}
	if p, err := DocumentURI("file://localhost/tmp/x.go").Path(); err != nil || p != "/tmp/x.go" {
		t.Errorf("localhost URI → %q, %v", p, err)
	}
}

func TestWorkspaceEditDocumentChanges(t *testing.T) {
	data := `{"documentChanges":[
		{"textDocument":{"uri":"file:///a.go","version":3},"edits":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":5}},"newText":"x","annotationId":"n"}]},
		{"kind":"create","uri":"file:///b.go","options":{"ignoreIfExists":true}},
		{"kind":"rename","oldUri":"file:///b.go","newUri":"file:///c.go"},
		{"kind":"delete","uri":"file:///d","options":{"recursive":true}}
	]}`
	var e WorkspaceEdit
	if err := json.Unmarshal([]byte(data), &e); err != nil {
		t.Fatal(err)
	}
	three := 3
	want := []DocumentChange{
		{Edit: &TextDocumentEdit{TextDocument: VersionedTextDocumentIdentifier{URI: "file:///a.go", Version: &three}, Edits: []TextEdit{{Range: Range{Start: Position{1, 2}, End: Position{1, 5}}, NewText: "x"}}}},
		{Create: &CreateFile{Kind: "create", URI: "file:///b.go", Options: &FileOptions{IgnoreIfExists: true}}},
		{Rename: &RenameFile{Kind: "rename", OldURI: "file:///b.go", NewURI: "file:///c.go"}},
		{Delete: &DeleteFile{Kind: "delete", URI: "file:///d", Options: &DeleteOptions{Recursive: true}}},
	}
	if !reflect.DeepEqual(e.DocumentChanges, want) {
		t.Fatalf("decoded %+v", e.DocumentChanges)
	}
	out, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var again WorkspaceEdit
	if err := json.Unmarshal(out, &again); err != nil || !reflect.DeepEqual(again.DocumentChanges, want) {
		t.Fatalf("round trip: %s, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"documentChanges":[{"kind":"move"}]}`), &e); err == nil {
		t.Error("an unknown kind was accepted")
	}
}

// FuzzWorkspaceEdit: any answer a server sends decodes or fails without
// panicking, and what decodes encodes again.
func FuzzWorkspaceEdit(f *testing.F) {
	f.Add([]byte(`{"changes":{"file:///a":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"newText":"y"}]}}`))
	f.Add([]byte(`{"documentChanges":[{"kind":"rename","oldUri":"file:///a","newUri":"file:///b"},{"textDocument":{"uri":"file:///b","version":null},"edits":[]}]}`))
	f.Add([]byte(`{"documentChanges":[{"kind":null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var e WorkspaceEdit
		if json.Unmarshal(data, &e) != nil {
			return
		}
		for _, d := range e.DocumentChanges {
			if _, err := json.Marshal(d); err != nil {
				t.Fatalf("decoded change does not encode: %v", err)
			}
			if d.Edit != nil {
				_, _ = d.Edit.TextDocument.URI.Path()
			}
		}
	})
}

// FuzzDocumentURIPath: any URI a server names yields an absolute, clean
// path or an error.
func FuzzDocumentURIPath(f *testing.F) {
	for _, s := range []string{"file:///a/b.go", "file://localhost/x", "file:///C:/x", "file:///a/../../b", "untitled:1", "file:///%00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := DocumentURI(s).Path()
		if err != nil {
			return
		}
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			t.Fatalf("%q → %q: not an absolute clean path", s, p)
		}
	})
}
