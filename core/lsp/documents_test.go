package lsp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/core/lsp/edits"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
)

// Document reports what was last sent (version and the hash of the text
// without a byte-order mark); Refresh and SyncOpen bring open documents
// in step with their files, closing removed ones.
func TestDocumentAndRefresh(t *testing.T) {
	ctx := context.Background()
	m, root := fakeWorkspace(t, lsptest.FakeOK, ManagerOptions{})
	c, _, err := m.Client(ctx, m.Servers().List[0])
	if err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(root, "a.txt"), filepath.Join(root, "b.txt")
	write(t, a, "\xef\xbb\xbfone\n")
	write(t, b, "bee\n")
	if _, ok := c.Document(a); ok {
		t.Fatal("a document before it was opened")
	}
	if _, err := c.SyncFile(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SyncFile(ctx, b); err != nil {
		t.Fatal(err)
	}
	if d, ok := c.Document(a); !ok || d.Version != 1 || d.Hash != edits.HashText([]byte("one\n")) {
		t.Fatalf("opened: %+v %v", d, ok)
	}
	write(t, a, "two\n")
	if err := c.Refresh(ctx, []string{a, filepath.Join(root, "new.txt")}, nil); err != nil {
		t.Fatal(err)
	}
	if d, _ := c.Document(a); d.Version != 2 || d.Hash != edits.HashText([]byte("two\n")) {
		t.Fatalf("refreshed: %+v", d)
	}
	if c.IsOpen(filepath.Join(root, "new.txt")) {
		t.Fatal("Refresh opened a file that was not open")
	}
	write(t, a, "three\n")
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	if err := c.SyncOpen(ctx); err != nil {
		t.Fatal(err)
	}
	if d, _ := c.Document(a); d.Version != 3 {
		t.Fatalf("SyncOpen: %+v", d)
	}
	if c.IsOpen(b) {
		t.Fatal("a removed file is still open")
	}
	if err := c.Refresh(ctx, nil, []string{a}); err != nil || c.IsOpen(a) {
		t.Fatalf("removed by Refresh: %v %v", err, c.IsOpen(a))
	}
}
