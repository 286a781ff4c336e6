package extensions

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"fmt"
	"hash"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// hashMakers are the digests createHash and createHmac accept.
var hashMakers = map[string]func() hash.Hash{
	"md5": md5.New, "sha1": sha1.New, "sha256": sha256.New, "sha224": sha256.New224,
	"sha384": sha512.New384, "sha512": sha512.New,
}

// cryptoModule is the part of Node's crypto extensions use: createHash,
// createHmac, randomUUID, randomBytes, randomInt, timingSafeEqual,
// getHashes.
func cryptoModule(rt *goja.Runtime) *goja.Object {
	m := rt.NewObject()
	digester := func(h hash.Hash) *goja.Object {
		o := rt.NewObject()
		_ = o.Set("update", func(data, enc goja.Value) *goja.Object {
			_, _ = h.Write(dataBytes(rt, data, encodingOf(enc)))
			return o
		})
		_ = o.Set("digest", func(enc goja.Value) goja.Value {
			sum := h.Sum(nil)
			if enc == nil || goja.IsUndefined(enc) {
				return buffer.WrapBytes(rt, sum)
			}
			return buffer.EncodeBytes(rt, sum, enc)
		})
		return o
	}
	maker := func(alg string) func() hash.Hash {
		mk := hashMakers[strings.ToLower(strings.ReplaceAll(alg, "-", ""))]
		if mk == nil {
			panic(rt.NewGoError(fmt.Errorf("Digest method not supported: %q (gopi provides md5, sha1, sha224, sha256, sha384, sha512)", alg)))
		}
		return mk
	}
	_ = m.Set("createHash", func(alg string) *goja.Object { return digester(maker(alg)()) })
	_ = m.Set("createHmac", func(alg string, key goja.Value) *goja.Object {
		return digester(hmac.New(maker(alg), dataBytes(rt, key, "")))
	})
	_ = m.Set("getHashes", func() []string { return []string{"md5", "sha1", "sha224", "sha256", "sha384", "sha512"} })
	_ = m.Set("randomBytes", func(n int) goja.Value {
		if n < 0 || n > 1<<30 {
			panic(rt.NewTypeError("randomBytes: the size must be between 0 and 2^30"))
		}
		b := make([]byte, n)
		_, _ = rand.Read(b)
		return buffer.WrapBytes(rt, b)
	})
	_ = m.Set("randomUUID", func() string {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
	})
	_ = m.Set("randomInt", func(c goja.FunctionCall) int64 {
		lo, hi := int64(0), c.Argument(0).ToInteger()
		if len(c.Arguments) > 1 && !goja.IsUndefined(c.Argument(1)) {
			if _, isFn := goja.AssertFunction(c.Argument(1)); !isFn {
				lo, hi = hi, c.Argument(1).ToInteger()
			}
		}
		if hi <= lo {
			panic(rt.NewTypeError("randomInt: max must be greater than min"))
		}
		var b [8]byte
		_, _ = rand.Read(b[:])
		var n uint64
		for _, x := range b {
			n = n<<8 | uint64(x)
		}
		return lo + int64(n%uint64(hi-lo))
	})
	_ = m.Set("timingSafeEqual", func(a, b goja.Value) bool {
		x, y := buffer.Bytes(rt, a), buffer.Bytes(rt, b)
		if len(x) != len(y) {
			panic(rt.NewTypeError("Input buffers must have the same byte length"))
		}
		return subtle.ConstantTimeCompare(x, y) == 1
	})
	_ = m.Set("default", m)
	return m
}
