package shell

import "bytes"

// trailerScanner splits a shell's output stream into command output and
// the trailers the wrapper prints after each command: magic, then the
// trailer text, then a NUL byte. A possible start of the magic at the end
// of a chunk is held back until the next chunk decides it.
type trailerScanner struct {
	magic     []byte // NUL + "gopi-" + nonce + ";"
	carry     []byte // held back: a possible partial magic
	trailer   []byte // trailer text read so far
	inTrailer bool
}

// feed processes one chunk: out receives output bytes (it must not keep
// the slice), done each complete trailer's text.
func (s *trailerScanner) feed(data []byte, out func([]byte), done func(string)) {
	buf := data
	if len(s.carry) > 0 {
		buf = append(s.carry, data...)
		s.carry = nil
	}
	for len(buf) > 0 {
		if s.inTrailer {
			i := bytes.IndexByte(buf, 0)
			if i < 0 {
				s.trailer = append(s.trailer, buf...)
				return
			}
			s.trailer = append(s.trailer, buf[:i]...)
			text := string(s.trailer)
			s.trailer, s.inTrailer = s.trailer[:0], false
			buf = buf[i+1:]
			done(text)
			continue
		}
		if i := bytes.Index(buf, s.magic); i >= 0 {
			if i > 0 {
				out(buf[:i])
			}
			buf = buf[i+len(s.magic):]
			s.inTrailer = true
			continue
		}
		keep := s.partialMagic(buf)
		if len(buf) > keep {
			out(buf[:len(buf)-keep])
		}
		if keep > 0 {
			s.carry = append([]byte(nil), buf[len(buf)-keep:]...)
		}
		return
	}
}

// partialMagic returns the length of the longest end of buf that is a
// proper beginning of the magic.
func (s *trailerScanner) partialMagic(buf []byte) int {
	start := max(len(buf)-len(s.magic)+1, 0)
	for j := start; j < len(buf); j++ {
		if buf[j] == s.magic[0] && bytes.HasPrefix(s.magic, buf[j:]) {
			return len(buf) - j
		}
	}
	return 0
}

// flush returns what is held back (at the end of the stream).
func (s *trailerScanner) flush() []byte {
	out := s.carry
	s.carry = nil
	return out
}
