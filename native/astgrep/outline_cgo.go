//go:build cgo

package astgrep

/*
#include <stdlib.h>
#include "gopi_native.h"
*/
import "C"

import (
	"context"
	"encoding/binary"
	"errors"
	"runtime"
	"unsafe"
)

// Outline returns the function bodies of data parsed as lang (Python,
// JavaScript, TypeScript, TSX or Rust) that are at least minLines long, in
// file order and none inside another, for a structural summary of the
// file. With a cache, a path and the stamp taken before data was read,
// the tree goes through that parse cache, so a file summarised and
// searched is parsed once. It fails with ErrOutlineSyntax,
// ErrOutlineUnsupported, ErrOutlineNotUTF8 or the context's error.
func Outline(ctx context.Context, cache *ParseCache, lang, path string, stamp *FileStamp, data []byte, minLines int) ([]OutlineSpan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := NewCanceller()
	defer c.Close()
	stop := context.AfterFunc(ctx, c.Cancel)
	defer stop()
	lb := []byte(lang)
	lp, ll := bytesArg(lb)
	pb := []byte(path)
	pp, pl := bytesArg(pb)
	dp, dl := bytesArg(data)
	var cs *C.gopi_ast_stamp
	if stamp != nil && path != "" {
		cs = &C.gopi_ast_stamp{size: C.uint64_t(max(stamp.Size, 0)), ino: C.uint64_t(stamp.Ino), dev: C.uint64_t(stamp.Dev)}
		if !stamp.ModTime.IsZero() {
			cs.mtime_sec = C.int64_t(stamp.ModTime.Unix())
			cs.mtime_nsec = C.uint32_t(stamp.ModTime.Nanosecond())
			cs.has_mtime = 1
		}
		if !stamp.ChangeTime.IsZero() {
			cs.ctime_sec = C.int64_t(stamp.ChangeTime.Unix())
			cs.ctime_nsec = C.uint32_t(stamp.ChangeTime.Nanosecond())
			cs.has_ctime = 1
		}
	}
	var cp *C.gopi_ast_cache
	if cs != nil {
		if cp = cache.acquire(); cp != nil {
			defer cache.mu.RUnlock()
		}
	}
	var out *C.uint8_t
	var outLen C.size_t
	var msg *C.char
	rc := C.gopi_ast_outline(lp, ll, pp, pl, cs, dp, dl, C.uint32_t(max(minLines, 0)), cp, c.p, &out, &outLen, &msg)
	runtime.KeepAlive(lb)
	runtime.KeepAlive(pb)
	runtime.KeepAlive(data)
	switch rc {
	case C.GOPI_AST_OUTLINE_OK:
	case C.GOPI_AST_OUTLINE_SYNTAX:
		return nil, ErrOutlineSyntax
	case C.GOPI_AST_OUTLINE_UNSUPPORTED:
		return nil, ErrOutlineUnsupported
	case C.GOPI_AST_OUTLINE_NOT_UTF8:
		return nil, ErrOutlineNotUTF8
	case C.GOPI_AST_OUTLINE_CANCELLED:
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, ErrCancelled
	default:
		return nil, errors.New(takeString(msg))
	}
	defer C.gopi_ast_buffer_free(out, outLen)
	buf := unsafe.Slice((*byte)(unsafe.Pointer(out)), int(outLen))
	if len(buf) < 4 {
		return nil, errCorrupt
	}
	n := int(binary.LittleEndian.Uint32(buf))
	if len(buf) != 4+8*n {
		return nil, errCorrupt
	}
	spans := make([]OutlineSpan, n)
	for i := range spans {
		at := 4 + 8*i
		spans[i] = OutlineSpan{Start: int(binary.LittleEndian.Uint32(buf[at:])), End: int(binary.LittleEndian.Uint32(buf[at+4:]))}
	}
	return spans, nil
}
