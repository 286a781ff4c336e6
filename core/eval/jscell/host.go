package jscell

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/eval/cell"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
)

// cellRun is the cell being run: where its output goes.
type cellRun struct {
	ctx context.Context
	req cell.Request
	res *cell.Result
}

// host returns the Go functions the prelude builds the helpers on. They
// run on the cell's goroutine, inside Run (r.mu held, r.cur set).
func (r *Runtime) host(rt *goja.Runtime) map[string]any {
	// A helper's failure is thrown as a plain Error, so the cell sees its
	// message, not a Go error type.
	fail := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if e, err := rt.New(rt.Get("Error"), rt.ToValue(msg)); err == nil {
			panic(e)
		}
		panic(rt.NewGoError(errors.New(msg)))
	}
	return map[string]any{
		"print": func(s string) { _, _ = io.WriteString(r.cur.req.Output, s) },
		"json": func(s string) {
			r.cur.res.Displays = append(r.cur.res.Displays, cell.Display{Kind: cell.JSON, JSON: json.RawMessage(s)})
		},
		"image": func(data, mime string) {
			r.cur.res.Displays = append(r.cur.res.Displays, cell.Display{Kind: cell.Image, MIME: mime, Data: data})
		},
		"read": func(path string, offset, limit int) string {
			data, err := r.readFile(path)
			if err != nil {
				fail("%v", err)
			}
			text := string(data)
			if offset > 1 || limit > 0 {
				lines := strings.SplitAfter(text, "\n")
				start := min(max(offset, 1)-1, len(lines))
				end := len(lines)
				if limit > 0 {
					end = min(start+limit, end)
				}
				text = strings.Join(lines[start:end], "")
			}
			r.status("read", map[string]any{"path": path, "chars": len(text)})
			return text
		},
		"write": func(path, data string, appendTo bool) string {
			abs, err := r.resolve(path)
			if err == nil && appendTo {
				old, rerr := r.opts.ReadFile(r.cur.ctx, abs)
				if rerr != nil && !os.IsNotExist(rerr) {
					err = rerr
				}
				data = string(old) + data
			}
			if err == nil {
				err = r.opts.WriteFile(r.cur.ctx, abs, []byte(data))
			}
			if err != nil {
				fail("%v", err)
			}
			op := "write"
			if appendTo {
				op = "append"
			}
			r.status(op, map[string]any{"path": abs, "chars": len(data)})
			return abs
		},
		"diff": func(a, b string) string {
			da, err := r.readFile(a)
			if err != nil {
				fail("%v", err)
			}
			db, err := r.readFile(b)
			if err != nil {
				fail("%v", err)
			}
			return diff.Unified(a+" -> "+b, string(da), string(db))
		},
		"tree": func(path string, depth int, hidden bool) string {
			abs, err := r.resolve(path)
			if err != nil {
				fail("%v", err)
			}
			return tree(abs, depth, hidden)
		},
		"env": func(key string, value *string) any {
			if key == "" {
				return r.env
			}
			if value != nil {
				r.env[key] = *value
				return *value
			}
			if v, ok := r.env[key]; ok {
				return v
			}
			return nil
		},
		"callTool": func(name, args string) string {
			if r.opts.CallTool == nil {
				fail("tool.%s: this runtime cannot call tools", name)
			}
			out, err := r.opts.CallTool(r.cur.ctx, name, json.RawMessage(args))
			if err != nil {
				fail("tool.%s: %v", name, err)
			}
			return out
		},
	}
}

// resolve makes a helper's path absolute; URLs are refused.
func (r *Runtime) resolve(path string) (string, error) {
	if strings.Contains(path, "://") {
		return "", fmt.Errorf("%s is a URL; the file helpers take paths (read URLs with tool.read)", path)
	}
	return r.opts.Resolve(path), nil
}

// readFile reads a helper's file.
func (r *Runtime) readFile(path string) ([]byte, error) {
	abs, err := r.resolve(path)
	if err != nil {
		return nil, err
	}
	return r.opts.ReadFile(r.cur.ctx, abs)
}

// status records a helper's status event.
func (r *Runtime) status(op string, data map[string]any) {
	data["op"] = op
	raw, _ := json.Marshal(data)
	r.cur.res.Displays = append(r.cur.res.Displays, cell.Display{Kind: cell.Status, JSON: raw})
}

// show displays a cell's value: objects as JSON, the rest as text.
func (r *Runtime) show(val goja.Value) {
	if _, ok := val.(*goja.Object); ok {
		if _, isFn := goja.AssertFunction(val); !isFn {
			if b, err := json.Marshal(val.Export()); err == nil {
				r.cur.res.Displays = append(r.cur.res.Displays, cell.Display{Kind: cell.JSON, JSON: b})
				return
			}
		}
	}
	if _, isFn := goja.AssertFunction(val); isFn {
		// as console.log shows one; its source may be the prelude's
		name := ""
		if n := val.(*goja.Object).Get("name"); n != nil && n.String() != "" {
			name = ": " + n.String()
		}
		_, _ = io.WriteString(r.cur.req.Output, "[Function"+name+"]\n")
		return
	}
	_, _ = io.WriteString(r.cur.req.Output, val.String()+"\n")
}

// tree renders a directory tree depth levels deep.
func tree(root string, depth int, hidden bool) string {
	var b strings.Builder
	b.WriteString(filepath.Base(root))
	var walk func(dir, prefix string, level int)
	walk = func(dir, prefix string, level int) {
		if level >= depth {
			return
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		var names []os.DirEntry
		for _, e := range entries {
			if hidden || !strings.HasPrefix(e.Name(), ".") {
				names = append(names, e)
			}
		}
		sort.Slice(names, func(i, j int) bool { return names[i].Name() < names[j].Name() })
		for i, e := range names {
			last := i == len(names)-1
			branch, next := "├── ", "│   "
			if last {
				branch, next = "└── ", "    "
			}
			name := e.Name()
			if e.IsDir() {
				name += "/"
			}
			b.WriteString("\n" + prefix + branch + name)
			if e.IsDir() {
				walk(filepath.Join(dir, e.Name()), prefix+next, level+1)
			}
		}
	}
	walk(root, "", 0)
	return b.String()
}
