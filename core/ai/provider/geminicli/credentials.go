package geminicli

import (
	"encoding/json"
	"fmt"
	"time"
)

// Credentials are what a Gemini CLI or Antigravity sign-in hands a request:
// the API key of such a request is this JSON, as omp's login stores and
// passes it:
//
//	{"token":"ya29…","projectId":"my-proj","refreshToken":"1//…","expiresAt":1767225600000, …}
//
// "project_id", "refresh" and "expires" are accepted for the same fields,
// and an expiry in seconds is read as such. Other fields (email, …) are
// ignored.
type Credentials struct {
	Token        string    // OAuth access token, sent as a bearer token
	ProjectID    string    // Cloud Code Assist project the login discovered or created
	RefreshToken string    // for the credential store; the provider never refreshes
	ExpiresAt    time.Time // zero when unknown
}

// ParseCredentials decodes the API key of a Cloud Code Assist request.
// provider names the login in the error ("google-gemini-cli" or
// "google-antigravity").
func ParseCredentials(key, provider string) (Credentials, error) {
	relogin := fmt.Sprintf("sign in again with `gopi login %s` (or /login)", provider)
	if key == "" {
		return Credentials{}, fmt.Errorf("%s needs a Google sign-in: run `gopi login %s` (or /login)", provider, provider)
	}
	var raw struct {
		Token        any `json:"token"`
		ProjectID    any `json:"projectId"`
		ProjectIDAlt any `json:"project_id"`
		RefreshToken any `json:"refreshToken"`
		Refresh      any `json:"refresh"`
		ExpiresAt    any `json:"expiresAt"`
		Expires      any `json:"expires"`
	}
	if err := json.Unmarshal([]byte(key), &raw); err != nil {
		return Credentials{}, fmt.Errorf("the %s credentials are not the JSON a Google sign-in stores; %s", provider, relogin)
	}
	c := Credentials{
		Token:        str(raw.Token),
		ProjectID:    firstStr(raw.ProjectID, raw.ProjectIDAlt),
		RefreshToken: firstStr(raw.RefreshToken, raw.Refresh),
	}
	if c.Token == "" || c.ProjectID == "" {
		return Credentials{}, fmt.Errorf("the %s credentials lack the access token or the project id; %s", provider, relogin)
	}
	exp := raw.ExpiresAt
	if exp == nil {
		exp = raw.Expires
	}
	if f, ok := exp.(float64); ok && f > 0 && f < 1e17 {
		ms := int64(f)
		if f < 1e10 { // seconds
			ms = int64(f * 1000)
		}
		c.ExpiresAt = time.UnixMilli(ms)
	}
	return c, nil
}

// Key renders the credentials as the API key ParseCredentials reads, in
// omp's field names (a sign-in that stores Credentials hands requests
// this).
func (c Credentials) Key() string {
	v := struct {
		Token        string `json:"token"`
		ProjectID    string `json:"projectId"`
		RefreshToken string `json:"refreshToken,omitempty"`
		ExpiresAt    int64  `json:"expiresAt,omitempty"`
	}{Token: c.Token, ProjectID: c.ProjectID, RefreshToken: c.RefreshToken}
	if !c.ExpiresAt.IsZero() {
		v.ExpiresAt = c.ExpiresAt.UnixMilli()
	}
	data, _ := json.Marshal(v)
	return string(data)
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// firstStr is the first of vs that is a string (an empty one included),
// or "".
func firstStr(vs ...any) string {
	for _, v := range vs {
		if s, ok := v.(string); ok {
			return s
		}
	}
	return ""
}
