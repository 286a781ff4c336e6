package openaicodex

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
)

// authClaim is the JWT claim in which the ChatGPT sign-in's access token
// carries the account it was issued for.
const authClaim = "https://api.openai.com/auth"

// ErrNoAccountID is returned by AccountID for a token that is not a JWT
// with a chatgpt_account_id in its authClaim.
var ErrNoAccountID = errors.New("the ChatGPT access token names no account (no chatgpt_account_id in its " + authClaim + " claim); sign in again with `gopi login openai-codex`")

// AccountID returns the ChatGPT account id inside an access token: the
// chatgpt_account_id of the payload's "https://api.openai.com/auth"
// object. The signature is not checked (the backend does that); the
// payload may be base64url or standard base64, padded or not.
func AccountID(token string) (string, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", ErrNoAccountID
	}
	payload, err := decodeSegment(parts[1])
	if err != nil {
		return "", ErrNoAccountID
	}
	var claims map[string]json.RawMessage
	if json.Unmarshal(payload, &claims) != nil {
		return "", ErrNoAccountID
	}
	var auth struct {
		AccountID string `json:"chatgpt_account_id"`
	}
	if raw, ok := claims[authClaim]; !ok || json.Unmarshal(raw, &auth) != nil || auth.AccountID == "" {
		return "", ErrNoAccountID
	}
	return auth.AccountID, nil
}

// decodeSegment decodes one JWT segment, accepting both base64 alphabets
// with or without padding.
func decodeSegment(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	s = strings.NewReplacer("+", "-", "/", "_").Replace(s)
	return base64.RawURLEncoding.DecodeString(s)
}
