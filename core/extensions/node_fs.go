package extensions

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"

	"github.com/gopi-agent/gopi/core/tool"
)

// fsWork is one file operation: its arguments read on the engine's
// goroutine, then work done anywhere, then finish building the result on
// the engine's goroutine again.
type fsWork func() (finish func() goja.Value, err error)

// fsOp reads a call's arguments and returns the work.
type fsOp func(c goja.FunctionCall) fsWork

// fsModule is Node's fs: every operation in its Sync, callback and
// promises (fs.promises, fs/promises) forms. Relative paths resolve
// against the session's directory; writes go through gopi's one write
// path (atomic, an existing file's mode and owner kept) and are reported
// to Options.Written.
func (r *Runtime) fsModule(rt *goja.Runtime) *goja.Object {
	if m, ok := r.node.mods["fs"]; ok {
		return m.(*goja.Object)
	}
	m := rt.NewObject()
	promises := rt.NewObject()
	def := func(name string, op fsOp) {
		_ = m.Set(name+"Sync", func(c goja.FunctionCall) goja.Value {
			finish, err := op(c)()
			if err != nil {
				panic(nodeError(rt, err))
			}
			return finish()
		})
		_ = promises.Set(name, func(c goja.FunctionCall) goja.Value { return r.fsPromise(rt, op(c)) })
		_ = m.Set(name, func(c goja.FunctionCall) goja.Value {
			n := len(c.Arguments)
			cb, ok := goja.AssertFunction(c.Argument(n - 1))
			if n == 0 || !ok {
				panic(rt.NewTypeError("fs." + name + ": the last argument must be a callback (or use fs.promises." + name + ")"))
			}
			c.Arguments = c.Arguments[:n-1]
			work := op(c)
			go func() {
				finish, err := work()
				r.vm.post(func() {
					var cerr error
					if err != nil {
						_, cerr = cb(goja.Undefined(), nodeError(rt, err))
					} else {
						_, cerr = cb(goja.Undefined(), goja.Null(), finish())
					}
					if cerr != nil {
						r.report(LoadError{Path: "(fs)", Event: "fs." + name, Err: jsError(cerr).Error()})
					}
				})
			}()
			return goja.Undefined()
		})
	}
	abs := func(v goja.Value) string {
		p := v.String()
		if u, ok := v.(*goja.Object); ok && u.Get("pathname") != nil && !goja.IsUndefined(u.Get("pathname")) {
			p = u.Get("pathname").String() // a file: URL
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.cwd(), p)
		}
		return filepath.Clean(p)
	}
	none := func() goja.Value { return goja.Undefined() }
	// changed tells Options.Written of a path created, written or
	// removed, when the operation succeeded.
	changed := func(err error, paths ...string) (func() goja.Value, error) {
		if err == nil && r.opts.Written != nil {
			for _, p := range paths {
				r.opts.Written(p)
			}
		}
		return none, err
	}
	write := func(p string, data []byte) error {
		if err := tool.WriteFileAtomic(p, data, 0o644); err != nil {
			return err
		}
		if r.opts.Written != nil {
			r.opts.Written(p)
		}
		return nil
	}
	def("readFile", func(c goja.FunctionCall) fsWork {
		p, enc := abs(c.Argument(0)), encodingOf(c.Argument(1))
		return func() (func() goja.Value, error) {
			b, err := readChecked(p)
			return func() goja.Value { return decodeData(rt, b, enc) }, err
		}
	})
	def("writeFile", func(c goja.FunctionCall) fsWork {
		p, data := abs(c.Argument(0)), dataBytes(rt, c.Argument(1), encodingOf(c.Argument(2)))
		return func() (func() goja.Value, error) { return none, write(p, data) }
	})
	def("appendFile", func(c goja.FunctionCall) fsWork {
		p, data := abs(c.Argument(0)), dataBytes(rt, c.Argument(1), encodingOf(c.Argument(2)))
		return func() (func() goja.Value, error) {
			old, err := os.ReadFile(p)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			return none, write(p, append(old, data...))
		}
	})
	def("copyFile", func(c goja.FunctionCall) fsWork {
		src, dst := abs(c.Argument(0)), abs(c.Argument(1))
		return func() (func() goja.Value, error) {
			b, err := readChecked(src)
			if err != nil {
				return nil, err
			}
			return none, write(dst, b)
		}
	})
	def("readdir", func(c goja.FunctionCall) fsWork {
		p := abs(c.Argument(0))
		typed := optBool(c.Argument(1), "withFileTypes")
		return func() (func() goja.Value, error) {
			ents, err := os.ReadDir(p)
			return func() goja.Value {
				out := make([]any, len(ents))
				for i, e := range ents {
					if typed {
						out[i] = direntObject(rt, e.Name(), p, e.Type())
					} else {
						out[i] = e.Name()
					}
				}
				return rt.ToValue(out)
			}, err
		}
	})
	statOp := func(follow bool) fsOp {
		return func(c goja.FunctionCall) fsWork {
			p := abs(c.Argument(0))
			return func() (func() goja.Value, error) {
				st := os.Stat
				if !follow {
					st = os.Lstat
				}
				fi, err := st(p)
				return func() goja.Value { return statObject(rt, fi) }, err
			}
		}
	}
	def("stat", statOp(true))
	def("lstat", statOp(false))
	def("mkdir", func(c goja.FunctionCall) fsWork {
		p, recursive := abs(c.Argument(0)), optBool(c.Argument(1), "recursive")
		return func() (func() goja.Value, error) {
			if recursive {
				return changed(os.MkdirAll(p, 0o755), p)
			}
			return changed(os.Mkdir(p, 0o755), p)
		}
	})
	def("mkdtemp", func(c goja.FunctionCall) fsWork {
		prefix := abs(c.Argument(0))
		return func() (func() goja.Value, error) {
			d, err := os.MkdirTemp(filepath.Dir(prefix), filepath.Base(prefix)+"*")
			return func() goja.Value { return rt.ToValue(d) }, err
		}
	})
	def("rm", func(c goja.FunctionCall) fsWork {
		p := abs(c.Argument(0))
		recursive, force := optBool(c.Argument(1), "recursive"), optBool(c.Argument(1), "force")
		return func() (func() goja.Value, error) {
			var err error
			if recursive {
				if _, err = os.Lstat(p); err == nil {
					err = os.RemoveAll(p)
				}
			} else {
				err = os.Remove(p)
			}
			if force && errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
			return changed(err, p)
		}
	})
	def("unlink", func(c goja.FunctionCall) fsWork {
		p := abs(c.Argument(0))
		return func() (func() goja.Value, error) { return changed(os.Remove(p), p) }
	})
	def("rmdir", func(c goja.FunctionCall) fsWork {
		p := abs(c.Argument(0))
		return func() (func() goja.Value, error) {
			fi, err := os.Lstat(p)
			if err == nil && !fi.IsDir() {
				return nil, &fs.PathError{Op: "rmdir", Path: p, Err: syscall.ENOTDIR}
			}
			return changed(os.Remove(p), p)
		}
	})
	def("rename", func(c goja.FunctionCall) fsWork {
		a, b := abs(c.Argument(0)), abs(c.Argument(1))
		return func() (func() goja.Value, error) { return changed(os.Rename(a, b), a, b) }
	})
	def("access", func(c goja.FunctionCall) fsWork {
		p := abs(c.Argument(0))
		return func() (func() goja.Value, error) { _, err := os.Stat(p); return none, err }
	})
	def("realpath", func(c goja.FunctionCall) fsWork {
		p := abs(c.Argument(0))
		return func() (func() goja.Value, error) {
			real, err := filepath.EvalSymlinks(p)
			return func() goja.Value { return rt.ToValue(real) }, err
		}
	})
	_ = m.Set("existsSync", func(v goja.Value) bool {
		if v == nil || goja.IsUndefined(v) {
			return false
		}
		_, err := os.Stat(abs(v))
		return err == nil
	})
	_ = m.Set("promises", promises)
	consts := map[string]int{"F_OK": 0, "R_OK": 4, "W_OK": 2, "X_OK": 1}
	_ = m.Set("constants", consts)
	for k, v := range consts {
		_ = m.Set(k, v)
	}
	_ = promises.Set("constants", consts)
	_ = promises.Set("default", promises)
	_ = m.Set("default", m)
	r.node.mods["fs"] = m
	return m
}

// fsPromise runs work off the engine and settles a promise with it.
func (r *Runtime) fsPromise(rt *goja.Runtime, work fsWork) goja.Value {
	p, resolve, reject := rt.NewPromise()
	go func() {
		finish, err := work()
		r.vm.post(func() {
			if err != nil {
				_ = reject(nodeError(rt, err))
				return
			}
			_ = resolve(finish())
		})
	}()
	return rt.ToValue(p)
}

// readChecked reads a whole file; a directory fails with EISDIR, as in
// Node (the read itself says so: no separate stat).
func readChecked(p string) ([]byte, error) {
	return os.ReadFile(p)
}

// nodeError turns a Go file error into an Error with Node's code, errno,
// syscall and path ("ENOENT: no such file or directory, open '/x'").
func nodeError(rt *goja.Runtime, err error) *goja.Object {
	var errno syscall.Errno
	code := ""
	if errors.As(err, &errno) {
		code = errnoName(errno)
	}
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) && code != "" {
		msg = code + ": " + errno.Error() + ", " + pe.Op + " '" + pe.Path + "'"
	}
	o := newError(rt, msg)
	if code != "" {
		_ = o.Set("code", code)
		_ = o.Set("errno", -int(errno))
	}
	if pe != nil {
		_ = o.Set("path", pe.Path)
		_ = o.Set("syscall", pe.Op)
	}
	return o
}

func errnoName(e syscall.Errno) string {
	switch e {
	case syscall.ENOENT:
		return "ENOENT"
	case syscall.EEXIST:
		return "EEXIST"
	case syscall.EACCES:
		return "EACCES"
	case syscall.EPERM:
		return "EPERM"
	case syscall.ENOTDIR:
		return "ENOTDIR"
	case syscall.EISDIR:
		return "EISDIR"
	case syscall.ENOTEMPTY:
		return "ENOTEMPTY"
	case syscall.EXDEV:
		return "EXDEV"
	}
	return "EIO"
}

// encodingOf reads an encoding argument: "utf8" or {encoding}; "" for
// none (bytes as a Buffer).
func encodingOf(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	if o, ok := v.(*goja.Object); ok {
		e := o.Get("encoding")
		if e == nil || goja.IsUndefined(e) || goja.IsNull(e) {
			return ""
		}
		return e.String()
	}
	return v.String()
}

// decodeData is a file's content for JavaScript: a Buffer, or a string
// in enc.
func decodeData(rt *goja.Runtime, b []byte, enc string) goja.Value {
	switch enc {
	case "":
		return buffer.WrapBytes(rt, b)
	case "utf8", "utf-8":
		return textValue(rt, ownedString(b))
	}
	return buffer.EncodeBytes(rt, b, rt.ToValue(enc))
}

// ownedString is b as a string without a copy. Only for bytes nothing
// else holds and nobody changes afterwards (a file just read): a third of
// readFileSync's cost over Go's own read was this copy. Invalid UTF-8
// stays as goja's conversion of any Go string treats it.
func ownedString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// dataBytes is the bytes of data written: a string in enc (utf8 unless
// said), a Buffer, a typed array or an ArrayBuffer.
func dataBytes(rt *goja.Runtime, v goja.Value, enc string) []byte {
	if s, ok := v.Export().(string); ok {
		if enc == "" || enc == "utf8" || enc == "utf-8" {
			return []byte(s)
		}
		return buffer.DecodeBytes(rt, v, rt.ToValue(enc))
	}
	return buffer.Bytes(rt, v)
}

func optBool(v goja.Value, key string) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	b := o.Get(key)
	return b != nil && b.ToBoolean()
}

// statObject is an fs.Stats.
func statObject(rt *goja.Runtime, fi fs.FileInfo) goja.Value {
	if fi == nil {
		return goja.Undefined()
	}
	o := rt.NewObject()
	mode := fi.Mode()
	ms := float64(fi.ModTime().UnixNano()) / 1e6
	_ = o.Set("size", fi.Size())
	_ = o.Set("mode", uint32(mode.Perm())|typeBits(mode))
	_ = o.Set("mtimeMs", ms)
	date, _ := rt.New(rt.Get("Date"), rt.ToValue(ms))
	_ = o.Set("mtime", date)
	_ = o.Set("ctime", date)
	_ = o.Set("atime", date)
	_ = o.Set("birthtime", date)
	setKind(o, mode.Type())
	return o
}

// direntObject is an fs.Dirent.
func direntObject(rt *goja.Runtime, name, dir string, t fs.FileMode) goja.Value {
	o := rt.NewObject()
	_ = o.Set("name", name)
	_ = o.Set("parentPath", dir)
	_ = o.Set("path", dir)
	setKind(o, t)
	return o
}

func setKind(o *goja.Object, t fs.FileMode) {
	_ = o.Set("isFile", func() bool { return t.IsRegular() })
	_ = o.Set("isDirectory", func() bool { return t.IsDir() })
	_ = o.Set("isSymbolicLink", func() bool { return t&fs.ModeSymlink != 0 })
	_ = o.Set("isFIFO", func() bool { return t&fs.ModeNamedPipe != 0 })
	_ = o.Set("isSocket", func() bool { return t&fs.ModeSocket != 0 })
}

func typeBits(m fs.FileMode) uint32 {
	switch {
	case m.IsDir():
		return 0o040000
	case m&fs.ModeSymlink != 0:
		return 0o120000
	}
	return 0o100000
}

// newError is a plain JavaScript Error with msg.
func newError(rt *goja.Runtime, msg string) *goja.Object {
	o, err := rt.New(rt.Get("Error"), rt.ToValue(msg))
	if err != nil {
		return rt.NewGoError(errors.New(msg))
	}
	return o
}
