package extensions

import (
	"encoding/binary"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// A file read as text reaches JavaScript as a string. goja keeps ASCII
// strings as they are and others as UTF-16, and finds out which a Go
// string is by looking at every byte, one at a time, when the script
// first uses it: for a 64 KiB file that look cost more than reading the
// file. textValue looks eight bytes at a time instead and, when the text
// is ASCII, hands goja the value its own look would have produced.

// asciiKind is goja's ASCII string value's type, learnt from a short
// ASCII string (which goja classifies at once); nil when that value is
// not a string-kinded type (a goja that changed its representation), and
// then every text takes goja's own path.
var (
	asciiOnce  sync.Once
	asciiProto goja.Value
)

// eface is the layout of an interface value: its type word and a pointer
// to the data (for a string-kinded type, a string header).
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// textValue is s as a JavaScript string value.
func textValue(rt *goja.Runtime, s string) goja.Value {
	asciiOnce.Do(func() {
		v := rt.ToValue("a")
		if t := reflect.TypeOf(v); t != nil && t.Kind() == reflect.String && t.Name() == "asciiString" && t.PkgPath() == "github.com/dop251/goja" {
			asciiProto = v
		}
	})
	if asciiProto == nil || len(s) <= 16 || !isASCII(s) {
		return rt.ToValue(s)
	}
	v := asciiProto
	p := new(string)
	*p = s
	(*eface)(unsafe.Pointer(&v)).data = unsafe.Pointer(p)
	return v
}

// isASCII reports whether s has no byte ≥ 0x80, 32 bytes a step.
func isASCII(s string) bool {
	const high = 0x8080808080808080
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	i := 0
	for ; i+32 <= len(b); i += 32 {
		w := binary.LittleEndian.Uint64(b[i:]) | binary.LittleEndian.Uint64(b[i+8:]) |
			binary.LittleEndian.Uint64(b[i+16:]) | binary.LittleEndian.Uint64(b[i+24:])
		if w&high != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= 0x80 {
			return false
		}
	}
	return true
}
