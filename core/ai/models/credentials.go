package models

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// CredentialsFile holds stored credentials in the agent directory.
const CredentialsFile = "auth.json"

// Credential is one stored credential: {"type":"api_key","key":…} or
// {"type":"oauth","access":…,"refresh":…,"expires":<unix ms>}.
type Credential struct {
	Type    string `json:"type"`              // "api_key" or "oauth"
	Key     string `json:"key,omitempty"`     // API key (api_key)
	Access  string `json:"access,omitempty"`  // access token (oauth)
	Refresh string `json:"refresh,omitempty"` // refresh token (oauth; refreshing is not done here)
	Expires int64  `json:"expires,omitempty"` // access token expiry, Unix ms (oauth)
}

// Secret returns the usable key, or "" when the credential is empty or an
// expired OAuth token.
func (c Credential) Secret(now time.Time) string {
	switch c.Type {
	case "oauth":
		if c.Expires > 0 && now.UnixMilli() >= c.Expires {
			return ""
		}
		return c.Access
	default:
		return c.Key
	}
}

// loadCredentials reads auth.json from dir; a missing file is empty.
func loadCredentials(dir string) (map[string]Credential, error) {
	path := filepath.Join(dir, CredentialsFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]Credential{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read stored credentials: %w", err)
	}
	out := map[string]Credential{}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, &ConfigError{Path: path, Msg: "invalid JSON: " + err.Error() + ` (expected {"<provider>": {"type": "api_key", "key": "…"}})`}
	}
	return out, nil
}
