package edits

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// workspaceDir is a temporary workspace holding files; it returns the
// root (links resolved, so messages compare) and Options rooted there
// that show paths relative to it.
func workspaceDir(t *testing.T, files map[string]string) (string, Options) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, Options{Roots: []string{root}, Display: func(abs string) string {
		rel, err := filepath.Rel(root, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			return abs
		}
		return filepath.ToSlash(rel)
	}}
}

// tree is every file below root with its content, directories as "/".
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			out[rel+"/"] = ""
		case d.Type()&fs.ModeSymlink != 0:
			to, _ := os.Readlink(p)
			out[rel] = "-> " + to
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func uri(root, name string) protocol.DocumentURI { return protocol.FileURI(filepath.Join(root, name)) }

func editOf(u protocol.DocumentURI, version *int, edits ...protocol.TextEdit) protocol.DocumentChange {
	return protocol.DocumentChange{Edit: &protocol.TextDocumentEdit{
		TextDocument: protocol.VersionedTextDocumentIdentifier{URI: u, Version: version}, Edits: edits}}
}

func createOf(u protocol.DocumentURI, o *protocol.FileOptions) protocol.DocumentChange {
	return protocol.DocumentChange{Create: &protocol.CreateFile{Kind: "create", URI: u, Options: o}}
}

func renameOf(from, to protocol.DocumentURI, o *protocol.FileOptions) protocol.DocumentChange {
	return protocol.DocumentChange{Rename: &protocol.RenameFile{Kind: "rename", OldURI: from, NewURI: to, Options: o}}
}

func deleteOf(u protocol.DocumentURI, o *protocol.DeleteOptions) protocol.DocumentChange {
	return protocol.DocumentChange{Delete: &protocol.DeleteFile{Kind: "delete", URI: u, Options: o}}
}

func summary(r Result, o Options) string { return strings.Join(r.Summary(o.Display), "\n") }

func TestApplyChangesAcrossFiles(t *testing.T) {
	root, opts := workspaceDir(t, map[string]string{
		"a.go":     "package a\n\nfunc Old() int { return 1 }\n",
		"b/b.go":   "package b\r\n\r\nimport \"m/a\"\r\n\r\nvar X = a.Old()\r\n",
		"c/c.go":   "\ufeffpackage c\n\n// 😀 é\nvar Y = a.Old() + a.Old()\n",
		"other.go": "untouched\n",
	})
	edit := protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
		uri(root, "a.go"):   {te(2, 5, 2, 8, "New")},
		uri(root, "b/b.go"): {te(4, 10, 4, 13, "New")},
		uri(root, "c/c.go"): {te(3, 10, 3, 13, "New"), te(3, 20, 3, 23, "New"), te(2, 3, 2, 5, "ok\n// more")},
	}}
	res, err := Apply(context.Background(), edit, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a.go":     "package a\n\nfunc New() int { return 1 }\n",
		"b/":       "",
		"b/b.go":   "package b\r\n\r\nimport \"m/a\"\r\n\r\nvar X = a.New()\r\n",
		"c/":       "",
		"c/c.go":   "\ufeffpackage c\n\n// ok\n// more é\nvar Y = a.New() + a.New()\n",
		"other.go": "untouched\n",
	}
	if got := tree(t, root); !maps.Equal(got, want) {
		t.Errorf("tree = %q\nwant %q", got, want)
	}
	if got, want := summary(res, opts), "Applied 1 edit(s) to a.go\nApplied 1 edit(s) to b/b.go\nApplied 3 edit(s) to c/c.go"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
}

func TestApplyDocumentChangesInOrder(t *testing.T) {
	root, opts := workspaceDir(t, map[string]string{
		"a.go":         "package a\nvar A = 1\n",
		"pkg/x.go":     "package pkg\nvar X = 1\n",
		"pkg/y.go":     "package pkg\n",
		"gone.go":      "package gone\n",
		"dir/in/f.txt": "f\n",
	})
	v := 0
	edit := protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
		createOf(uri(root, "new/n.go"), nil),
		editOf(uri(root, "new/n.go"), nil, te(0, 0, 0, 0, "package n\n")),
		renameOf(uri(root, "a.go"), uri(root, "moved/b.go"), nil),
		editOf(uri(root, "moved/b.go"), nil, te(1, 4, 1, 5, "B")),
		renameOf(uri(root, "pkg"), uri(root, "pkg2"), nil),
		editOf(uri(root, "pkg2/x.go"), &v, te(1, 8, 1, 9, "2")),
		deleteOf(uri(root, "gone.go"), nil),
		deleteOf(uri(root, "dir"), &protocol.DeleteOptions{Recursive: true}),
	}}
	res, err := Apply(context.Background(), edit, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"new/": "", "new/n.go": "package n\n",
		"moved/": "", "moved/b.go": "package a\nvar B = 1\n",
		"pkg2/": "", "pkg2/x.go": "package pkg\nvar X = 2\n", "pkg2/y.go": "package pkg\n",
	}
	if got := tree(t, root); !maps.Equal(got, want) {
		t.Errorf("tree = %q\nwant %q", got, want)
	}
	wantSummary := strings.Join([]string{
		"Created new/n.go", "Applied 1 edit(s) to new/n.go", "Renamed a.go → moved/b.go", "Applied 1 edit(s) to moved/b.go",
		"Renamed pkg → pkg2", "Applied 1 edit(s) to pkg2/x.go", "Deleted gone.go", "Deleted dir",
	}, "\n")
	if got := summary(res, opts); got != wantSummary {
		t.Errorf("summary =\n%s\nwant\n%s", got, wantSummary)
	}
	if got, want := res.Files(), []string{filepath.Join(root, "new/n.go"), filepath.Join(root, "moved/b.go"), filepath.Join(root, "pkg2"), filepath.Join(root, "pkg2/x.go")}; !slices.Equal(got, want) {
		t.Errorf("Files = %q, want %q", got, want)
	}
}

func TestApplyResourceOptions(t *testing.T) {
	files := map[string]string{"a.txt": "A\n", "b.txt": "B\n", "d/f.txt": "F\n", "e/": ""}
	tests := []struct {
		name    string
		change  func(root string) protocol.DocumentChange
		want    map[string]string // changed entries (a value "" with key ending in "/" is a directory; nil value: removed)
		removed []string
		wantErr string
	}{
		{name: "create over an existing file is refused",
			change:  func(r string) protocol.DocumentChange { return createOf(uri(r, "a.txt"), nil) },
			wantErr: "a.txt already exists and the server did not ask to overwrite it"},
		{name: "create with ignoreIfExists leaves it",
			change: func(r string) protocol.DocumentChange {
				return createOf(uri(r, "a.txt"), &protocol.FileOptions{IgnoreIfExists: true})
			}},
		{name: "create with overwrite empties it",
			change: func(r string) protocol.DocumentChange {
				return createOf(uri(r, "a.txt"), &protocol.FileOptions{Overwrite: true, IgnoreIfExists: true})
			},
			want: map[string]string{"a.txt": ""}},
		{name: "create over a directory is refused",
			change: func(r string) protocol.DocumentChange {
				return createOf(uri(r, "d"), &protocol.FileOptions{Overwrite: true})
			},
			wantErr: "d is a directory"},
		{name: "rename onto an existing file is refused",
			change:  func(r string) protocol.DocumentChange { return renameOf(uri(r, "a.txt"), uri(r, "b.txt"), nil) },
			wantErr: "b.txt already exists and the server did not ask to overwrite it with a.txt"},
		{name: "rename with ignoreIfExists does nothing",
			change: func(r string) protocol.DocumentChange {
				return renameOf(uri(r, "a.txt"), uri(r, "b.txt"), &protocol.FileOptions{IgnoreIfExists: true})
			}},
		{name: "rename with overwrite replaces",
			change: func(r string) protocol.DocumentChange {
				return renameOf(uri(r, "a.txt"), uri(r, "b.txt"), &protocol.FileOptions{Overwrite: true})
			},
			want: map[string]string{"b.txt": "A\n"}, removed: []string{"a.txt"}},
		{name: "rename of a directory onto an existing one with overwrite",
			change: func(r string) protocol.DocumentChange {
				return renameOf(uri(r, "d"), uri(r, "e"), &protocol.FileOptions{Overwrite: true})
			},
			want: map[string]string{"e/f.txt": "F\n"}, removed: []string{"d/", "d/f.txt"}},
		{name: "rename of a missing file is refused",
			change:  func(r string) protocol.DocumentChange { return renameOf(uri(r, "nope"), uri(r, "x"), nil) },
			wantErr: "nope does not exist"},
		{name: "rename into itself is refused",
			change:  func(r string) protocol.DocumentChange { return renameOf(uri(r, "d"), uri(r, "d/sub"), nil) },
			wantErr: "d cannot move into itself"},
		{name: "delete of a missing file is refused",
			change:  func(r string) protocol.DocumentChange { return deleteOf(uri(r, "nope"), nil) },
			wantErr: "nope does not exist; the server asks to delete it"},
		{name: "delete with ignoreIfNotExists does nothing",
			change: func(r string) protocol.DocumentChange {
				return deleteOf(uri(r, "nope"), &protocol.DeleteOptions{IgnoreIfNotExists: true})
			}},
		{name: "delete of a non-empty directory needs recursive",
			change:  func(r string) protocol.DocumentChange { return deleteOf(uri(r, "d"), nil) },
			wantErr: "d is a directory that is not empty and the server did not ask for a recursive delete"},
		{name: "delete of an empty directory",
			change:  func(r string) protocol.DocumentChange { return deleteOf(uri(r, "e"), nil) },
			removed: []string{"e/"}},
		{name: "delete of the workspace root is refused",
			change: func(r string) protocol.DocumentChange {
				return deleteOf(protocol.FileURI(r), &protocol.DeleteOptions{Recursive: true})
			},
			wantErr: "is a workspace root or holds one"},
		{name: "a move of the workspace root is refused",
			change:  func(r string) protocol.DocumentChange { return renameOf(protocol.FileURI(r), uri(r, "x"), nil) },
			wantErr: "is a workspace root or holds one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, opts := workspaceDir(t, nil)
			for name, content := range files {
				p := filepath.Join(root, name)
				if strings.HasSuffix(name, "/") {
					_ = os.MkdirAll(p, 0o755)
					continue
				}
				_ = os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := tree(t, root)
			_, err := Apply(context.Background(), protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{tt.change(root)}}, opts)
			if tt.wantErr != "" {
				var re *RefusedError
				if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasSuffix(err.Error(), "; nothing was changed") {
					t.Fatalf("err = %v, want a refusal containing %q", err, tt.wantErr)
				}
				if got := tree(t, root); !maps.Equal(got, before) {
					t.Errorf("a refused edit changed the workspace: %q", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := maps.Clone(before)
			for k, v := range tt.want {
				want[k] = v
			}
			for _, k := range tt.removed {
				delete(want, k)
			}
			if got := tree(t, root); !maps.Equal(got, want) {
				t.Errorf("tree = %q\nwant %q", got, want)
			}
		})
	}
}

func TestApplyRefusesStaleFiles(t *testing.T) {
	const aText, bText = "package a\nvar Old = 1\n", "package b\nvar X = Old\n"
	v3, v4 := 3, 4
	tests := []struct {
		name    string
		docs    map[string]Document
		version *int
		wantErr error
	}{
		{name: "version the server was sent", docs: map[string]Document{"b.go": {Version: 3}}, version: &v3},
		{name: "other version", docs: map[string]Document{"b.go": {Version: 4}}, version: &v3, wantErr: ErrStale},
		{name: "version of a document never sent", version: &v4},
		{name: "hash of what is on disk", docs: map[string]Document{"b.go": {Version: 3, Hash: HashText([]byte(bText))}}, version: &v3},
		{name: "the file changed after it was sent", docs: map[string]Document{"b.go": {Version: 3, Hash: HashText([]byte("package b\n"))}}, version: &v3, wantErr: ErrStale},
		{name: "changed, edit without a version", docs: map[string]Document{"b.go": {Version: 3, Hash: HashText([]byte("package b\n"))}}, wantErr: ErrStale},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, opts := workspaceDir(t, map[string]string{"a.go": aText, "b.go": bText})
			opts.Documents = func(abs string) (Document, bool) {
				d, ok := tt.docs[opts.Display(abs)]
				return d, ok
			}
			before := tree(t, root)
			_, err := Apply(context.Background(), protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
				editOf(uri(root, "a.go"), nil, te(1, 4, 1, 7, "New")), // fine, but must not be written alone
				editOf(uri(root, "b.go"), tt.version, te(1, 8, 1, 11, "New")),
			}}, opts)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var re *RefusedError
			if !errors.Is(err, tt.wantErr) || !errors.As(err, &re) || re.Change != 1 {
				t.Fatalf("err = %v, want %v on change 1", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), "b.go changed") || !strings.Contains(err.Error(), "run the request again") {
				t.Errorf("message %q does not name the file or say what to do", err)
			}
			if got := tree(t, root); !maps.Equal(got, before) {
				t.Errorf("a stale edit changed the workspace: %q", got)
			}
		})
	}
}

func TestApplyRefusesPathsOutsideTheWorkspace(t *testing.T) {
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.go"), []byte("package secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(root string) protocol.DocumentChange
	}{
		{name: "dot-dot in the URI", change: func(r string) protocol.DocumentChange {
			rel, err := filepath.Rel(r, filepath.Join(outside, "secret.go"))
			if err != nil || !strings.HasPrefix(rel, "..") {
				t.Fatalf("rel = %q, %v", rel, err)
			}
			return editOf(protocol.DocumentURI("file://"+r+"/"+filepath.ToSlash(rel)), nil, te(0, 0, 0, 0, "// x\n"))
		}},
		{name: "absolute path elsewhere", change: func(r string) protocol.DocumentChange {
			return editOf(protocol.FileURI(filepath.Join(outside, "secret.go")), nil, te(0, 0, 0, 0, "// x\n"))
		}},
		{name: "through a symlinked directory", change: func(r string) protocol.DocumentChange {
			return editOf(uri(r, "linkdir/secret.go"), nil, te(0, 0, 0, 0, "// x\n"))
		}},
		{name: "through a symlinked file", change: func(r string) protocol.DocumentChange {
			return editOf(uri(r, "link.go"), nil, te(0, 0, 0, 0, "// x\n"))
		}},
		{name: "create through a symlinked directory", change: func(r string) protocol.DocumentChange {
			return createOf(uri(r, "linkdir/new.go"), nil)
		}},
		{name: "create over a dangling link that leads out", change: func(r string) protocol.DocumentChange {
			return createOf(uri(r, "dangling.go"), &protocol.FileOptions{Overwrite: true})
		}},
		{name: "rename out of the workspace", change: func(r string) protocol.DocumentChange {
			return renameOf(uri(r, "in.go"), protocol.FileURI(filepath.Join(outside, "in.go")), nil)
		}},
		{name: "delete through a symlinked directory", change: func(r string) protocol.DocumentChange {
			return deleteOf(uri(r, "linkdir/secret.go"), nil)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, opts := workspaceDir(t, map[string]string{"in.go": "package in\n"})
			if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, "secret.go"), filepath.Join(root, "link.go")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, "made-by-the-link.go"), filepath.Join(root, "dangling.go")); err != nil {
				t.Fatal(err)
			}
			before, beforeOut := tree(t, root), tree(t, outside)
			_, err := Apply(context.Background(), protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
				editOf(uri(root, "in.go"), nil, te(0, 0, 0, 0, "// first\n")),
				tt.change(root),
			}}, opts)
			var re *RefusedError
			if !errors.Is(err, ErrOutsideWorkspace) || !errors.As(err, &re) || re.Change != 1 {
				t.Fatalf("err = %v, want ErrOutsideWorkspace on change 1", err)
			}
			if !strings.Contains(err.Error(), root) {
				t.Errorf("message %q does not name the workspace", err)
			}
			if !maps.Equal(tree(t, root), before) || !maps.Equal(tree(t, outside), beforeOut) {
				t.Error("a refused edit changed files")
			}
		})
	}
}

func TestApplyMovedLinkStillChecked(t *testing.T) {
	// A link moved within the workspace and then edited under its new
	// name still leads out: refused.
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	_ = os.WriteFile(filepath.Join(outside, "s.go"), []byte("s\n"), 0o644)
	root, opts := workspaceDir(t, nil)
	if err := os.Symlink(filepath.Join(outside, "s.go"), filepath.Join(root, "l.go")); err != nil {
		t.Fatal(err)
	}
	_, err := Apply(context.Background(), protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
		renameOf(uri(root, "l.go"), uri(root, "m.go"), nil),
		editOf(uri(root, "m.go"), nil, te(0, 0, 0, 0, "x")),
	}}, opts)
	if !errors.Is(err, ErrOutsideWorkspace) {
		t.Fatalf("err = %v, want ErrOutsideWorkspace", err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "s.go")); string(b) != "s\n" {
		t.Errorf("outside file = %q", b)
	}
	if _, err := os.Lstat(filepath.Join(root, "l.go")); err != nil {
		t.Errorf("the link was moved: %v", err)
	}
}

func TestApplyUndoesWhenAWriteFails(t *testing.T) {
	root, opts := workspaceDir(t, map[string]string{
		"a.go":      "package a\nvar A = 1\n",
		"gone.go":   "package gone\n",
		"old.go":    "package old\n",
		"z/fail.go": "package z\n",
	})
	write := opts.WriteFile
	if write == nil {
		write = func(_ context.Context, abs string, data []byte, perm fs.FileMode) error {
			return atomicfile.WriteFile(abs, data, perm)
		}
	}
	var writes []string
	opts.WriteFile = func(ctx context.Context, abs string, data []byte, perm fs.FileMode) error {
		writes = append(writes, opts.Display(abs))
		if strings.HasSuffix(abs, "fail.go") {
			return fmt.Errorf("disk full")
		}
		return write(ctx, abs, data, perm)
	}
	var removed []string
	opts.Removed = func(abs string) { removed = append(removed, opts.Display(abs)) }
	opts.Written = func(abs string, _ []byte) { t.Errorf("Written(%s) after a failed edit", abs) }
	before := tree(t, root)
	_, err := Apply(context.Background(), protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
		editOf(uri(root, "a.go"), nil, te(1, 4, 1, 5, "B")),
		createOf(uri(root, "made/deep/n.go"), nil),
		renameOf(uri(root, "old.go"), uri(root, "new/old.go"), nil),
		deleteOf(uri(root, "gone.go"), nil),
		editOf(uri(root, "z/fail.go"), nil, te(0, 0, 0, 0, "// x\n")),
	}}, opts)
	var we *WriteError
	if !errors.As(err, &we) || we.Change != 4 || we.Restored != 4 || len(we.Unrestored) != 0 {
		t.Fatalf("err = %#v (%v), want a WriteError on change 4 with 4 changes undone", err, err)
	}
	if want := "Cannot apply the language server's edit: cannot write z/fail.go: disk full; the 4 changes already made were undone, nothing was changed"; err.Error() != want {
		t.Errorf("message = %q\nwant      %q", err, want)
	}
	if got := tree(t, root); !maps.Equal(got, before) {
		t.Errorf("after the undo the tree is %q\nwant %q", got, before)
	}
	if !slices.Equal(writes, []string{"a.go", "made/deep/n.go", "z/fail.go", "a.go"}) {
		t.Errorf("writes = %q", writes)
	}
	if !slices.Contains(removed, "a.go") || !slices.Contains(removed, "new/old.go") {
		t.Errorf("Removed heard %q, want every touched path", removed)
	}
}

func TestApplyKeepsModeAndOwner(t *testing.T) {
	root, opts := workspaceDir(t, map[string]string{"run.sh": "#!/bin/sh\necho old\n", "secret.txt": "old\n"})
	run, secret := filepath.Join(root, "run.sh"), filepath.Join(root, "secret.txt")
	if err := os.Chmod(run, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(secret, 0o600); err != nil {
		t.Fatal(err)
	}
	chowned := os.Getuid() == 0 && os.Lchown(secret, 4242, 4343) == nil
	_, err := Apply(context.Background(), protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
		uri(root, "run.sh"):     {te(1, 5, 1, 8, "new")},
		uri(root, "secret.txt"): {te(0, 0, 0, 3, "new")},
	}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for p, mode := range map[string]fs.FileMode{run: 0o755, secret: 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != mode {
			t.Errorf("%s mode = %v, want %v", p, fi.Mode().Perm(), mode)
		}
	}
	if b, _ := os.ReadFile(run); string(b) != "#!/bin/sh\necho new\n" {
		t.Errorf("run.sh = %q", b)
	}
	if chowned {
		uid, gid := ownerOf(t, secret)
		if uid != 4242 || gid != 4343 {
			t.Errorf("owner = %d:%d, want 4242:4343", uid, gid)
		}
	}
}

func TestApplyRefusesReadOnlyAndBadEdits(t *testing.T) {
	tests := []struct {
		name    string
		edits   []protocol.TextEdit
		file    string
		wantErr string
	}{
		{name: "read-only file", file: "ro.go", edits: []protocol.TextEdit{te(0, 0, 0, 0, "x")}, wantErr: "ro.go is read-only"},
		{name: "overlapping edits", file: "a.go", edits: []protocol.TextEdit{te(0, 0, 0, 4, "x"), te(0, 2, 0, 6, "y")}, wantErr: "a.go: edits 1 and 2 overlap"},
		{name: "out of range", file: "a.go", edits: []protocol.TextEdit{te(7, 0, 7, 1, "x")}, wantErr: "a.go: edit 1 starts outside the document"},
		{name: "missing file", file: "nope.go", edits: []protocol.TextEdit{te(0, 0, 0, 0, "x")}, wantErr: "nope.go does not exist"},
		{name: "a directory", file: "d", edits: []protocol.TextEdit{te(0, 0, 0, 0, "x")}, wantErr: "d is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, opts := workspaceDir(t, map[string]string{"a.go": "package a\n", "ro.go": "package ro\n", "d/x": "x"})
			if err := os.Chmod(filepath.Join(root, "ro.go"), 0o444); err != nil {
				t.Fatal(err)
			}
			before := tree(t, root)
			_, err := Apply(context.Background(), protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
				editOf(uri(root, "a.go"), nil, te(0, 0, 0, 0, "// ok\n")),
				editOf(uri(root, tt.file), nil, tt.edits...),
			}}, opts)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want ErrInvalid containing %q", err, tt.wantErr)
			}
			if got := tree(t, root); !maps.Equal(got, before) {
				t.Errorf("a refused edit changed the workspace: %q", got)
			}
		})
	}
}

func TestApplyWithoutRootsRefuses(t *testing.T) {
	root, opts := workspaceDir(t, map[string]string{"a.go": "a"})
	opts.Roots = nil
	_, err := Apply(context.Background(), protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
		uri(root, "a.go"): {te(0, 0, 0, 0, "x")},
	}}, opts)
	if !errors.Is(err, ErrOutsideWorkspace) || !strings.Contains(err.Error(), "(none given)") {
		t.Fatalf("err = %v", err)
	}
}

func TestApplyNonFileURIRefused(t *testing.T) {
	_, opts := workspaceDir(t, nil)
	_, err := Apply(context.Background(), protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
		"untitled:Untitled-1": {te(0, 0, 0, 0, "x")},
	}}, opts)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `"untitled:Untitled-1", which is not a local file`) {
		t.Fatalf("err = %v", err)
	}
}

func TestEnvOptionsRefreshTheReadCache(t *testing.T) {
	root, _ := workspaceDir(t, map[string]string{"a.go": "package a\nvar Old = 1\n", "b.go": "package b\n"})
	env := tool.NewEnv(root)
	a, b := filepath.Join(root, "a.go"), filepath.Join(root, "b.go")
	env.ReadCache.RecordText(a, "package a\nvar Old = 1\n")
	env.ReadCache.RecordText(b, "package b\n")
	_, err := Apply(context.Background(), protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
		editOf(protocol.FileURI(a), nil, te(1, 4, 1, 7, "New")),
		renameOf(protocol.FileURI(b), uri(root, "c.go"), nil),
	}}, EnvOptions(env, []string{root}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := env.ReadCache.Get(a); !ok || s.Lines[2] != "var New = 1" || s.TotalLines != 3 { // the empty line after the final break counts, as read shows it
		t.Errorf("read cache of a.go = %+v, %v; want the new text", s, ok)
	}
	if _, ok := env.ReadCache.Get(b); ok {
		t.Error("the read cache still has b.go after it moved")
	}
}

func TestHandleApplyEdit(t *testing.T) {
	root, opts := workspaceDir(t, map[string]string{"a.go": "package a\n"})
	got := HandleApplyEdit(context.Background(), protocol.ApplyWorkspaceEditParams{Label: "fix", Edit: protocol.WorkspaceEdit{
		DocumentChanges: []protocol.DocumentChange{editOf(uri(root, "a.go"), nil, te(0, 8, 0, 9, "b"))},
	}}, opts)
	if !got.Applied || got.FailureReason != "" || got.FailedChange != nil {
		t.Errorf("result = %+v, want applied", got)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.go")); string(b) != "package b\n" {
		t.Errorf("a.go = %q", b)
	}
	got = HandleApplyEdit(context.Background(), protocol.ApplyWorkspaceEditParams{Edit: protocol.WorkspaceEdit{
		DocumentChanges: []protocol.DocumentChange{
			editOf(uri(root, "a.go"), nil, te(0, 0, 0, 0, "//\n")),
			deleteOf(uri(root, "missing.go"), nil),
		},
	}}, opts)
	if got.Applied || got.FailedChange == nil || *got.FailedChange != 1 || !strings.Contains(got.FailureReason, "missing.go does not exist") {
		t.Errorf("result = %+v, want a failure on change 1", got)
	}
}

func TestApplyRefusesOneFileUnderTwoURIs(t *testing.T) {
	root, opts := workspaceDir(t, map[string]string{"a.go": "package a\n"})
	before := tree(t, root)
	_, err := Apply(context.Background(), protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
		uri(root, "a.go"): {te(0, 0, 0, 0, "// one\n")},
		protocol.DocumentURI("file://" + root + "/./a.go"): {te(0, 0, 0, 0, "// two\n")},
	}}, opts)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "a.go is named twice") {
		t.Fatalf("err = %v", err)
	}
	if !maps.Equal(tree(t, root), before) {
		t.Error("a refused edit changed a.go")
	}
}

// editorFiles is an editor front end's buffers (tool.Files): reads and
// writes go to memory.
type editorFiles struct{ buf map[string][]byte }

func (f *editorFiles) ReadFile(_ context.Context, abs string) ([]byte, error) {
	if b, ok := f.buf[abs]; ok {
		return b, nil
	}
	return nil, fs.ErrNotExist
}

func (f *editorFiles) WriteFile(_ context.Context, abs string, data []byte, _ fs.FileMode) error {
	f.buf[abs] = data
	return nil
}

func TestEnvOptionsUseTheEditorsBuffers(t *testing.T) {
	root, _ := workspaceDir(t, map[string]string{"a.go": "package a\nvar Old = 1\n"})
	a := filepath.Join(root, "a.go")
	env := tool.NewEnv(root)
	// The buffer has an unsaved line the disk lacks; the server saw it.
	files := &editorFiles{buf: map[string][]byte{a: []byte("package a\n\n// unsaved\nvar Old = 1\n")}}
	env.Files = files
	res, err := Apply(context.Background(), protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
		protocol.FileURI(a): {te(3, 4, 3, 7, "New")},
	}}, EnvOptions(env, []string{root}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(files.buf[a]); got != "package a\n\n// unsaved\nvar New = 1\n" {
		t.Errorf("buffer = %q", got)
	}
	if b, _ := os.ReadFile(a); string(b) != "package a\nvar Old = 1\n" {
		t.Errorf("the disk was written: %q", b)
	}
	if got := strings.Join(res.Summary(env.DisplayPath), "\n"); got != "Applied 1 edit(s) to a.go" {
		t.Errorf("summary = %q", got)
	}
}

func TestApplySaysWhatCouldNotBeUndone(t *testing.T) {
	root, opts := workspaceDir(t, map[string]string{"a.go": "package a\n", "fail.go": "package f\n"})
	writes := map[string]int{}
	opts.WriteFile = func(_ context.Context, abs string, data []byte, perm fs.FileMode) error {
		writes[abs]++
		if strings.HasSuffix(abs, "fail.go") || writes[abs] > 1 {
			return fmt.Errorf("disk full")
		}
		return atomicfile.WriteFile(abs, data, perm)
	}
	_, err := Apply(context.Background(), protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
		uri(root, "a.go"):    {te(0, 0, 0, 0, "// a\n")},
		uri(root, "fail.go"): {te(0, 0, 0, 0, "// f\n")},
	}}, opts)
	var we *WriteError
	if !errors.As(err, &we) || len(we.Unrestored) != 1 {
		t.Fatalf("err = %v, want one change not undone", err)
	}
	if want := "Cannot apply the language server's edit: cannot write fail.go: disk full; undoing what was already changed failed too (a.go: disk full): check those files by hand"; err.Error() != want {
		t.Errorf("message = %q\nwant      %q", err, want)
	}
}

func TestApplyCancelledBeforeWriting(t *testing.T) {
	root, opts := workspaceDir(t, map[string]string{"a.go": "package a\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Apply(ctx, protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
		uri(root, "a.go"): {te(0, 0, 0, 0, "// a\n")},
	}}, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.go")); string(b) != "package a\n" {
		t.Errorf("a.go = %q", b)
	}
}

func TestEnvOptionsRefreshTheScanCache(t *testing.T) {
	root, _ := workspaceDir(t, map[string]string{"a.go": "package a\n", "d/x.go": "package d\n"})
	env := tool.NewEnv(root)
	env.Caches = &tool.Caches{Scan: fscache.New(fscache.Policy{TTL: time.Hour, MaxEntries: 4})}
	paths := func() []string {
		s, err := env.Caches.Scan.GetOrScan(context.Background(), root, fscache.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range s.Entries {
			out = append(out, e.Path)
		}
		return out
	}
	if got := paths(); !slices.Equal(got, []string{"a.go", "d", "d/x.go"}) {
		t.Fatalf("first scan = %q", got)
	}
	_, err := Apply(context.Background(), protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
		createOf(uri(root, "n/new.go"), nil),
		deleteOf(uri(root, "a.go"), nil),
		renameOf(uri(root, "d"), uri(root, "e"), nil),
	}}, EnvOptions(env, []string{root}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(); !slices.Equal(got, []string{"e", "e/x.go", "n", "n/new.go"}) {
		t.Errorf("scan after the edit = %q", got)
	}
}

func TestSequenceJoinsServerEditsAndTheMove(t *testing.T) {
	// rename_file: the servers' edits for workspace/willRenameFiles, then
	// the move, applied as one edit.
	for _, destExists := range []bool{false, true} {
		t.Run(fmt.Sprint("destination exists: ", destExists), func(t *testing.T) {
			files := map[string]string{"old.ts": "export const x = 1\n", "main.ts": "import { x } from './old'\r\n"}
			if destExists {
				files["new.ts"] = "taken\n"
			}
			root, opts := workspaceDir(t, files)
			server := protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
				uri(root, "main.ts"): {te(0, 19, 0, 24, "./new")},
			}}
			all := append(Sequence(server), renameOf(uri(root, "old.ts"), uri(root, "new.ts"), nil))
			before := tree(t, root)
			res, err := Apply(context.Background(), protocol.WorkspaceEdit{DocumentChanges: all}, opts)
			if destExists {
				var re *RefusedError
				if !errors.As(err, &re) || re.Change != 1 || !maps.Equal(tree(t, root), before) {
					t.Fatalf("err = %v; the move onto an existing file must refuse the whole edit", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"new.ts": "export const x = 1\n", "main.ts": "import { x } from './new'\r\n"}
			if got := tree(t, root); !maps.Equal(got, want) {
				t.Errorf("tree = %q", got)
			}
			if got := summary(res, opts); got != "Applied 1 edit(s) to main.ts\nRenamed old.ts → new.ts" {
				t.Errorf("summary = %q", got)
			}
		})
	}
}
