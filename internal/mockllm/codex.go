package mockllm

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
)

// The ChatGPT backend's Responses endpoint (…/codex/responses) is checked
// for what the backend needs before it streams: a bearer access token
// that is a JWT naming a ChatGPT account, the same account in the
// chatgpt-account-id header, "OpenAI-Beta: responses=experimental", an
// originator, "store": false and no max_output_tokens. A request that
// breaks one gets a 400 or 401 whose message starts with "mockllm: codex:"
// and names the rule; the texts are the mock's, not the backend's.

// codexClaim is the JWT claim holding the ChatGPT account.
const codexClaim = "https://api.openai.com/auth"

// checkCodex applies the ChatGPT backend's request rules.
func checkCodex(r *http.Request, body []byte) *rejection {
	refuse := func(status int, msg string) *rejection {
		return &rejection{status: status, body: map[string]any{"error": map[string]any{
			"message": "mockllm: codex: " + msg, "type": "invalid_request_error", "code": nil, "param": nil}}}
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || token == "" {
		return refuse(http.StatusUnauthorized, "no bearer access token in Authorization")
	}
	account := jwtAccount(token)
	if account == "" {
		return refuse(http.StatusUnauthorized, "the access token is not a JWT with a chatgpt_account_id in its "+codexClaim+" claim")
	}
	if got := r.Header.Get("chatgpt-account-id"); got != account {
		return refuse(http.StatusUnauthorized, "chatgpt-account-id "+quote(got)+" is not the token's account "+quote(account))
	}
	if got := r.Header.Get("OpenAI-Beta"); got != "responses=experimental" {
		return refuse(http.StatusBadRequest, "OpenAI-Beta is "+quote(got)+", want responses=experimental")
	}
	if r.Header.Get("originator") == "" {
		return refuse(http.StatusBadRequest, "no originator header")
	}
	var req map[string]any
	if json.Unmarshal(body, &req) != nil {
		return nil // the server reports an unreadable body
	}
	if store, ok := req["store"].(bool); !ok || store {
		return refuse(http.StatusBadRequest, `"store" must be false`)
	}
	if _, ok := req["max_output_tokens"]; ok {
		return refuse(http.StatusBadRequest, "unsupported parameter: max_output_tokens")
	}
	return nil
}

// jwtAccount returns the ChatGPT account a token names, or "".
func jwtAccount(token string) string {
	segs := strings.Split(token, ".")
	if len(segs) != 3 {
		return ""
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(segs[1], "="))
	if err != nil {
		return ""
	}
	var claims struct {
		Auth struct {
			Account string `json:"chatgpt_account_id"`
		} `json:"https://api.openai.com/auth"`
	}
	if json.Unmarshal(raw, &claims) != nil {
		return ""
	}
	return claims.Auth.Account
}

// quote renders a header value in a message.
func quote(s string) string { return `"` + s + `"` }
