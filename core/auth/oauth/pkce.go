package oauth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
)

// pkce is one Proof Key for Code Exchange pair (RFC 7636, method S256): the
// authorization request carries the challenge, the token request the
// verifier, so a stolen code is useless without the verifier.
type pkce struct {
	Verifier  string // 96 random bytes, base64url without padding (128 characters)
	Challenge string // base64url(SHA-256(Verifier)) without padding
}

// newPKCE draws a fresh verifier and derives its challenge.
func newPKCE() pkce {
	b := make([]byte, 96)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	v := base64.RawURLEncoding.EncodeToString(b)
	return pkce{Verifier: v, Challenge: challengeOf(v)}
}

// challengeOf is the S256 challenge of verifier.
func challengeOf(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// newState draws the state parameter that ties a callback to the sign-in
// that started it (16 random bytes, hex, as omp makes it).
func newState() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
