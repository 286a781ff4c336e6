package oauth

import (
	"errors"
	"fmt"
	"strings"
)

// ErrLoginRequired matches (errors.Is) a failure that only a new sign-in
// fixes: the refresh token was revoked or has expired, or the provider
// refused the grant outright. Callers report it once with the command in
// the error's text and stop retrying.
var ErrLoginRequired = errors.New("a new sign-in is required")

// Error is a failed step of a sign-in or refresh. Its text is one line that
// names the provider, what failed and the command that fixes it; it never
// carries a token.
type Error struct {
	Provider string // provider id ("anthropic")
	Step     string // what failed ("token refresh", "token exchange", "sign-in")
	Status   int    // HTTP status, 0 when the request did not get an answer
	Code     string // the OAuth error code ("invalid_grant"), when the server sent one
	Detail   string // the server's description or what was wrong, short
	Relogin  bool   // only `gopi login <provider>` fixes it
	Err      error  // the transport error, when the request failed on the way
}

// Error formats the failure and the fix in one line.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s failed", e.Provider, e.Step)
	var why []string
	if e.Status != 0 {
		why = append(why, fmt.Sprint(e.Status))
	}
	if e.Code != "" {
		why = append(why, e.Code)
	}
	if len(why) > 0 || e.Detail != "" {
		b.WriteString(" (")
		b.WriteString(strings.Join(why, " "))
		if e.Detail != "" {
			if len(why) > 0 {
				b.WriteString(": ")
			}
			b.WriteString(e.Detail)
		}
		b.WriteString(")")
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %s", oneLine(e.Err.Error()))
	}
	switch {
	case e.Relogin:
		fmt.Fprintf(&b, "; sign in again with `gopi login %s`", e.Provider)
	case e.Err != nil:
		fmt.Fprintf(&b, "; check the network and try again, or sign in again with `gopi login %s`", e.Provider)
	case e.Status >= 500 || e.Status == 429:
		fmt.Fprintf(&b, "; try again later, or sign in again with `gopi login %s`", e.Provider)
	default:
		fmt.Fprintf(&b, "; try `gopi login %s` again", e.Provider)
	}
	return b.String()
}

// Unwrap returns the transport error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrLoginRequired) true for failures only a new
// sign-in fixes.
func (e *Error) Is(target error) bool { return target == ErrLoginRequired && e.Relogin }

// maxDetail bounds how much of a server's description an error repeats.
const maxDetail = 200

// oneLine folds s to a single line of at most maxDetail characters.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxDetail {
		s = string(r[:maxDetail]) + "…"
	}
	return s
}
