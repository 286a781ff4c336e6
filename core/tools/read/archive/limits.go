package archive

import (
	"errors"
	"fmt"
	"io"

	"github.com/gopi-agent/gopi/internal/humansize"
)

// Limits are the caps that keep a hostile archive from exhausting memory
// or time: decompression stops at them with a *CapError.
type Limits struct {
	// EntryBytes bounds the expanded size of one member read.
	EntryBytes int64
	// StreamBytes bounds the bytes a .tar.gz expands to while it is walked
	// (listing it means decompressing all of it).
	StreamBytes int64
	// PackRatio bounds expanded/compressed size once more than RatioFloor
	// bytes have come out: deflate tops out near 1032:1, so only a bomb
	// (or a file of one repeated byte) gets there.
	PackRatio  int64
	RatioFloor int64
	// Entries bounds the members indexed.
	Entries int
}

// DefaultLimits are the caps the read tool uses: 32 MiB per member,
// 512 MiB per .tar.gz stream, 1000:1 past 1 MiB, 100,000 members.
func DefaultLimits() Limits {
	return Limits{EntryBytes: 32 << 20, StreamBytes: 512 << 20, PackRatio: 1000, RatioFloor: 1 << 20, Entries: 100_000}
}

// CapError reports decompression stopped (or refused) at a cap.
type CapError struct{ msg string }

func (e *CapError) Error() string { return e.msg }

func capErrorf(format string, args ...any) error { return &CapError{fmt.Sprintf(format, args...)} }

// checkExpansion refuses a member whose declared sizes exceed the caps.
func (l Limits) checkExpansion(size, packed int64) error {
	if size > l.EntryBytes {
		return l.tooBig(size)
	}
	if size > l.RatioFloor && (packed <= 0 || size/packed > l.PackRatio) {
		return capErrorf("it declares %s packed into %s, a ratio over %d:1 that only an archive bomb reaches; it was not expanded",
			humansize.Format(size), humansize.Format(packed), l.PackRatio)
	}
	return nil
}

// tooBig refuses a member over EntryBytes.
func (l Limits) tooBig(size int64) error {
	return capErrorf("it expands to %s, over the %s limit for one archive member; extract it and read the extracted file in parts",
		humansize.Format(size), humansize.Format(l.EntryBytes))
}

// The member errors that are not caps.
var (
	errEncrypted   = errors.New("it is encrypted, and read does not decrypt archives; extract it with the password (e.g. unzip -P) and read the extracted file")
	errUnsupported = errors.New("it uses a compression method read cannot decompress; extract it with unzip and read the extracted file")
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// cappedReader stops a decompressed stream at the caps: StreamBytes in
// all, PackRatio once RatioFloor bytes are out. It remembers tripping,
// whatever its caller does with the error.
type cappedReader struct {
	r       io.Reader
	packed  *countingReader // the compressed side
	limits  Limits
	n       int64
	tripped error
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.tripped != nil {
		return 0, c.tripped
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	switch {
	case c.n > c.limits.StreamBytes:
		c.tripped = capErrorf("it expands past %s, more than read decompresses; reading stopped there", humansize.Format(c.limits.StreamBytes))
	case c.n > c.limits.RatioFloor && c.n/max(c.packed.n, 1) > c.limits.PackRatio:
		c.tripped = capErrorf("%s of compressed data expanded to %s, a ratio over %d:1 that only an archive bomb reaches; reading stopped there",
			humansize.Format(c.packed.n), humansize.Format(c.n), c.limits.PackRatio)
	}
	if c.tripped != nil {
		return 0, c.tripped
	}
	return n, err
}
