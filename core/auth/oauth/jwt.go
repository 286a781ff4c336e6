package oauth

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// JWT claims where OpenAI puts the ChatGPT account and the profile.
const (
	codexAuthClaim    = "https://api.openai.com/auth"
	codexProfileClaim = "https://api.openai.com/profile"
)

// jwtPayload decodes the claims of a JSON Web Token without checking its
// signature (the token came straight from the issuer over TLS; only the
// provider's servers judge it). ok is false for anything that is not three
// dot-separated parts with a base64 JSON object in the middle.
func jwtPayload(token string) (claims map[string]json.RawMessage, ok bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, false
	}
	seg := strings.TrimRight(parts[1], "=")
	raw, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(seg); err != nil {
			return nil, false
		}
	}
	if json.Unmarshal(raw, &claims) != nil || claims == nil {
		return nil, false
	}
	return claims, true
}

// codexClaims reads the ChatGPT account id and the account's e-mail
// (trimmed, lower case) from an OpenAI access token; either is "" when the
// token does not carry it.
func codexClaims(token string) (accountID, email string) {
	claims, ok := jwtPayload(token)
	if !ok {
		return "", ""
	}
	var auth struct {
		AccountID string `json:"chatgpt_account_id"`
	}
	var profile struct {
		Email string `json:"email"`
	}
	_ = json.Unmarshal(claims[codexAuthClaim], &auth)
	_ = json.Unmarshal(claims[codexProfileClaim], &profile)
	return auth.AccountID, strings.ToLower(strings.TrimSpace(profile.Email))
}
