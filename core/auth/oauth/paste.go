package oauth

import (
	"net/url"
	"strings"
)

// pasteMessage is what the paste prompt asks for.
const pasteMessage = "Paste the authorization code (or full redirect URL):"

// parsePasted reads what a user pasted when the browser could not reach the
// local callback: the full redirect URL (http://localhost:1455/auth/callback
// ?code=…&state=…), its query alone (code=…&state=…, with or without a
// leading ? or #), or the bare code, which may carry the state after a #
// (code#state, the form Anthropic's page shows). state is empty when the
// paste does not say it; code is empty when nothing usable was pasted.
func parsePasted(input string) (code, state string) {
	s := strings.TrimSpace(input)
	if s == "" {
		return "", ""
	}
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Host != "" {
		q := u.Query()
		return q.Get("code"), q.Get("state")
	}
	if strings.Contains(s, "code=") {
		// A query (maybe with its leading ? or #), or a URL without its
		// scheme whose parameters follow the first ?; a fragment after
		// them is not part of them.
		s = strings.TrimLeft(s, "?#")
		if i := strings.IndexByte(s, '?'); i >= 0 {
			s = s[i+1:]
		}
		s, _, _ = strings.Cut(s, "#")
		q, _ := url.ParseQuery(s)
		return q.Get("code"), q.Get("state")
	}
	code, rest, _ := strings.Cut(s, "#")
	state, _, _ = strings.Cut(rest, "#")
	return code, state
}
