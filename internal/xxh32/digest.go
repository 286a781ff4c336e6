package xxh32

import "unsafe"

// Digest is the running XXH32 of input written in pieces. Start one with
// NewDigest (the zero value is not a valid state); a copy is an independent
// snapshot.
type Digest struct {
	v     [4]uint32
	total uint64 // bytes written
	buf   [stripe]byte
	nbuf  int // bytes waiting in buf
	seed  uint32
}

// NewDigest starts a hash with the given seed.
func NewDigest(seed uint32) Digest {
	d := Digest{seed: seed}
	d.Reset()
	return d
}

// Reset forgets everything written, keeping the seed.
func (d *Digest) Reset() {
	s := d.seed
	*d = Digest{seed: s, v: [4]uint32{s + prime1 + prime2, s + prime2, s, s - prime1}}
}

// Write adds p to the hash. It never fails.
func (d *Digest) Write(p []byte) (int, error) {
	n := len(p)
	d.total += uint64(n)
	if d.nbuf > 0 {
		k := copy(d.buf[d.nbuf:], p)
		d.nbuf += k
		p = p[k:]
		if d.nbuf < stripe {
			return n, nil
		}
		d.block(unsafe.String(&d.buf[0], stripe))
		d.nbuf = 0
	}
	for len(p) >= stripe {
		d.block(unsafe.String(&p[0], stripe))
		p = p[stripe:]
	}
	d.nbuf = copy(d.buf[:], p)
	return n, nil
}

// block consumes one 16-byte stripe.
func (d *Digest) block(s string) {
	d.v[0] = round(d.v[0], le32(s[0:4]))
	d.v[1] = round(d.v[1], le32(s[4:8]))
	d.v[2] = round(d.v[2], le32(s[8:12]))
	d.v[3] = round(d.v[3], le32(s[12:16]))
}

// Sum32 returns the hash of everything written so far; the digest is
// unchanged and may take more input.
func (d *Digest) Sum32() uint32 {
	var h uint32
	if d.total >= stripe {
		h = merge(d.v[0], d.v[1], d.v[2], d.v[3])
	} else {
		h = d.seed + prime5
	}
	return finish(h+uint32(d.total), string(d.buf[:d.nbuf]))
}
