package edits_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp/edits"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
)

// A rename as the lsp tool handles it: preview the server's answer, or
// apply it through the session's write path and list what changed.
func Example() {
	root, _ := os.MkdirTemp("", "edits-example")
	defer os.RemoveAll(root)
	root, _ = filepath.EvalSymlinks(root)
	a := filepath.Join(root, "a.go")
	_ = os.WriteFile(a, []byte("package a\r\n\r\nfunc Old() {}\r\n"), 0o644)

	// What gopls answers to textDocument/rename (Old → New).
	edit := protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
		protocol.FileURI(a): {{Range: protocol.Range{
			Start: protocol.Position{Line: 2, Character: 5}, End: protocol.Position{Line: 2, Character: 8},
		}, NewText: "New"}},
	}}
	env := tool.NewEnv(root)
	fmt.Println("Rename preview:\n  " + strings.ReplaceAll(edits.Preview(edit, env.DisplayPath), "\n", "\n  "))

	// Only the workspace root may change; the client would pass what it
	// sent the server as documents.
	res, err := edits.Apply(context.Background(), edit, edits.EnvOptions(env, []string{root}, nil))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("Applied rename:\n  " + strings.Join(res.Summary(env.DisplayPath), "\n  "))
	b, _ := os.ReadFile(a)
	fmt.Printf("%q\n", b)
	// Output:
	// Rename preview:
	//   a.go: 1 edit
	//     line 3:6 → "New"
	// Applied rename:
	//   Applied 1 edit(s) to a.go
	// "package a\r\n\r\nfunc New() {}\r\n"
}
