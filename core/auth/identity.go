package auth

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// IdentityKey names the account a sign-in belongs to, the identity_key
// column of agent.db: "email:<address>" or "account:<id>", or "" when
// nothing names it (API keys never have one). Two sign-ins with one
// identity are one account, so a new login replaces the old row instead
// of adding a second.
//
// The candidates are, in order: the stored account id, the stored email,
// then what the access and refresh tokens say when they are JWTs (an email
// claim, OpenAI's profile email, an account or subject claim). Anthropic
// and OpenAI Codex prefer an email; the others prefer an account id.
func IdentityKey(provider string, c Credential) string {
	if c.Kind != KindOAuth {
		return ""
	}
	var ids []string
	add := func(id string) {
		for _, have := range ids {
			if have == id {
				return
			}
		}
		ids = append(ids, id)
	}
	if a := strings.TrimSpace(c.OAuth.AccountID); a != "" {
		add("account:" + a)
	}
	if e := normalEmail(c.OAuth.Email); e != "" {
		add("email:" + e)
	}
	for _, tok := range []string{c.OAuth.Access, c.OAuth.Refresh} {
		for _, id := range tokenIdentities(tok) {
			add(id)
		}
	}
	first := func(prefix string) string {
		for _, id := range ids {
			if strings.HasPrefix(id, prefix) {
				return id
			}
		}
		return ""
	}
	email, account := first("email:"), first("account:")
	if (provider == "openai-codex" || provider == "anthropic") && email != "" {
		return email
	}
	if account != "" {
		return account
	}
	return email
}

func normalEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// tokenIdentities reads the identities a JWT's payload names; a token that
// is not a JWT names none.
func tokenIdentities(tok string) []string {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return nil
	}
	var claims map[string]any
	if json.Unmarshal(raw, &claims) != nil {
		return nil
	}
	str := func(m map[string]any, k string) string {
		s, _ := m[k].(string)
		return s
	}
	var out []string
	if e := normalEmail(str(claims, "email")); e != "" {
		out = append(out, "email:"+e)
	}
	if profile, ok := claims["https://api.openai.com/profile"].(map[string]any); ok {
		if e := normalEmail(str(profile, "email")); e != "" {
			out = append(out, "email:"+e)
		}
	}
	authClaims, _ := claims["https://api.openai.com/auth"].(map[string]any)
	// The first string among these claims is the account.
	for _, k := range []string{"account_id", "accountId", "user_id", "sub"} {
		if _, ok := claims[k].(string); ok {
			if a := strings.TrimSpace(str(claims, k)); a != "" {
				out = append(out, "account:"+a)
			}
			return out
		}
	}
	if a := strings.TrimSpace(str(authClaims, "chatgpt_account_id")); a != "" {
		out = append(out, "account:"+a)
	}
	return out
}
