package auth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// Kind is a credential's type, the credential_type column of agent.db.
type Kind string

// The two kinds of credential agent.db holds.
const (
	KindAPIKey Kind = "api_key" // a static key: data {"key": "…"}
	KindOAuth  Kind = "oauth"   // a sign-in: data is oauth.Credentials
)

// Credential is one stored credential: an API key or an OAuth sign-in.
type Credential struct {
	Kind  Kind              // KindAPIKey or KindOAuth
	Key   string            // the key (KindAPIKey)
	OAuth oauth.Credentials // the tokens (KindOAuth)
}

// APIKey returns a credential holding key.
func APIKey(key string) Credential { return Credential{Kind: KindAPIKey, Key: key} }

// OAuth returns a credential holding a sign-in.
func OAuth(c oauth.Credentials) Credential { return Credential{Kind: KindOAuth, OAuth: c} }

// errData is the decoding failure of a row's data column.
var errData = errors.New("credential data is not valid")

// DecodeData parses the data column of an agent.db row of the given kind.
// omp writes {"key": "…"} for an API key and the fields of
// oauth.Credentials for a sign-in; unknown fields are ignored, as omp
// ignores them. A row gopi cannot use (another kind, not a JSON object, no
// key) is an error, and the caller skips that row as omp does.
func DecodeData(kind Kind, data []byte) (Credential, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return Credential{}, fmt.Errorf("%w: not a JSON object", errData)
	}
	switch kind {
	case KindAPIKey:
		var v struct {
			Key *string `json:"key"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			return Credential{}, fmt.Errorf("%w: %v", errData, err)
		}
		if v.Key == nil {
			return Credential{}, fmt.Errorf("%w: api_key row without a key", errData)
		}
		return APIKey(*v.Key), nil
	case KindOAuth:
		// expires is a JavaScript number: an integer in practice, but
		// read as a float so that a fractional one does not lose the row.
		var v struct {
			oauth.Credentials
			Expires *float64 `json:"expires"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			return Credential{}, fmt.Errorf("%w: %v", errData, err)
		}
		c := v.Credentials
		if v.Expires != nil {
			c.Expires = clampMillis(*v.Expires)
		}
		return OAuth(c), nil
	default:
		return Credential{}, fmt.Errorf("%w: unknown credential type %q", errData, kind)
	}
}

// EncodeData returns the data column for c in omp's shape.
func (c Credential) EncodeData() ([]byte, error) {
	switch c.Kind {
	case KindAPIKey:
		return json.Marshal(struct {
			Key string `json:"key"`
		}{c.Key})
	case KindOAuth:
		return json.Marshal(c.OAuth)
	default:
		return nil, fmt.Errorf("unknown credential type %q", c.Kind)
	}
}

// clampMillis turns a JavaScript timestamp into Unix milliseconds: the
// fraction dropped, values beyond int64 (and NaN) held at the ends.
func clampMillis(f float64) int64 {
	switch {
	case f != f || f <= math.MinInt64:
		return math.MinInt64
	case f >= math.MaxInt64:
		return math.MaxInt64
	}
	return int64(f)
}

// secret is the value a fingerprint is taken of: the key, else the
// refresh token (what names a sign-in across its access tokens), else the
// access token.
func (c Credential) secret() string {
	if c.Kind == KindAPIKey {
		return c.Key
	}
	if c.OAuth.Refresh != "" {
		return c.OAuth.Refresh
	}
	return c.OAuth.Access
}
