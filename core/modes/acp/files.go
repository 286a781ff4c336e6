package acp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/tool"
)

// fileAccess is the session's tool.Files. When the editor offers
// fs/read_text_file and fs/write_text_file, files are read from its
// buffers (unsaved changes included) and written through it; otherwise
// the local disk is used. Either way every write is recorded with the
// text it replaced, so the tool call's update can show the diff.
type fileAccess struct {
	srv                     *server
	sessionID               string
	editorRead, editorWrite bool

	mu     sync.Mutex
	writes map[string]fileChange // by absolute path, until the call's end takes them
}

// fileChange is one file's content before and after a write; old is nil
// for a file the write created.
type fileChange struct {
	old *string
	new string
}

var _ tool.Files = (*fileAccess)(nil)

// ReadFile reads a file from the editor when it offers that, else from
// the disk. A file the disk does not have is missing (the editor is not
// asked: an unsaved new buffer is not seen). When the editor fails, the
// disk is read and the failure logged.
func (f *fileAccess) ReadFile(ctx context.Context, abs string) ([]byte, error) {
	if !f.editorRead {
		return os.ReadFile(abs)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	resp, err := f.srv.peer().ReadTextFile(ctx, sdk.ReadTextFileRequest{SessionId: sdk.SessionId(f.sessionID), Path: abs})
	if err != nil {
		f.srv.logf("the editor could not read %s (%v); reading the disk", abs, err)
		return os.ReadFile(abs)
	}
	return []byte(resp.Content), nil
}

// WriteFile writes through the editor when it offers that, else to the
// disk atomically, and records the change.
func (f *fileAccess) WriteFile(ctx context.Context, abs string, data []byte, perm fs.FileMode) error {
	var old *string
	switch prev, err := f.ReadFile(ctx, abs); {
	case err == nil:
		s := string(prev)
		old = &s
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if f.editorWrite {
		if _, err := f.srv.peer().WriteTextFile(ctx, sdk.WriteTextFileRequest{SessionId: sdk.SessionId(f.sessionID), Path: abs, Content: string(data)}); err != nil {
			return fmt.Errorf("the editor did not write the file: %s", requestMessage(err))
		}
	} else if err := tool.WriteFileAtomic(abs, data, perm); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if prev, ok := f.writes[abs]; ok {
		old = prev.old // several writes in one call: diff against the first
	}
	f.writes[abs] = fileChange{old: old, new: string(data)}
	return nil
}

// take removes and returns the recorded change of one file.
func (f *fileAccess) take(abs string) (fileChange, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.writes[abs]
	delete(f.writes, abs)
	return c, ok
}

// takeAll removes and returns every recorded change, by path.
func (f *fileAccess) takeAll() map[string]fileChange {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.writes
	f.writes = map[string]fileChange{}
	return out
}

// diffContent renders recorded changes as diff blocks, in path order.
func diffContent(changes map[string]fileChange) []sdk.ToolCallContent {
	paths := make([]string, 0, len(changes))
	for p := range changes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	out := make([]sdk.ToolCallContent, 0, len(paths))
	for _, p := range paths {
		c := changes[p]
		if c.old == nil {
			out = append(out, sdk.ToolDiffContent(p, c.new))
		} else {
			out = append(out, sdk.ToolDiffContent(p, c.new, *c.old))
		}
	}
	return out
}

// requestMessage is the readable part of an error from the editor.
func requestMessage(err error) string {
	var re *sdk.RequestError
	if errors.As(err, &re) {
		if d, ok := re.Data.(map[string]any); ok {
			if s, ok := d["error"].(string); ok && s != "" {
				return re.Message + ": " + s
			}
		}
		return re.Message
	}
	return err.Error()
}
