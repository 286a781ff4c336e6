package oauth

import (
	"regexp"
	"testing"
)

// The S256 example of RFC 7636, Appendix B.
func TestChallengeOfRFC7636Example(t *testing.T) {
	if got := challengeOf("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"); got != "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" {
		t.Fatalf("challenge = %s", got)
	}
}

func TestNewPKCEAndState(t *testing.T) {
	unreserved := regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`) // RFC 7636 §4.1
	a, b := newPKCE(), newPKCE()
	if !unreserved.MatchString(a.Verifier) || len(a.Verifier) != 128 || a.Challenge != challengeOf(a.Verifier) || a.Verifier == b.Verifier {
		t.Fatalf("pkce %+v", a)
	}
	if s := newState(); !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(s) || s == newState() {
		t.Fatalf("state %q", s)
	}
}
