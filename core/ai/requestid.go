package ai

import (
	"crypto/rand"
	"encoding/hex"
)

// NewRequestID returns a fresh random request id, "req_" and 24 hex digits.
func NewRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}

// EnsureRequestID sets r.RequestID when empty and returns it.
func (r *Request) EnsureRequestID() string {
	if r.RequestID == "" {
		r.RequestID = NewRequestID()
	}
	return r.RequestID
}
