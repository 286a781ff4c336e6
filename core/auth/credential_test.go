package auth

import (
	"bytes"
	"encoding/base64"
	"testing"

	"github.com/gopi-agent/gopi/core/auth/oauth"
)

func TestDecodeData(t *testing.T) {
	for _, tc := range []struct {
		kind Kind
		data string
		want Credential
		bad  bool
	}{
		{KindAPIKey, `{"key":"sk-1"}`, APIKey("sk-1"), false},
		{KindAPIKey, `{"key":""}`, APIKey(""), false},
		{KindAPIKey, `{}`, Credential{}, true},
		{KindAPIKey, `["sk"]`, Credential{}, true},
		{KindOAuth, `{"access":"a","refresh":"r","expires":1700000000000.7,"email":"e","projectId":"p","enterpriseUrl":"ghe.example","accountId":"acc","extra":1}`,
			OAuth(oauth.Credentials{Access: "a", Refresh: "r", Expires: 1700000000000, Email: "e", ProjectID: "p", EnterpriseURL: "ghe.example", AccountID: "acc"}), false},
		{KindOAuth, `{"access":5}`, Credential{}, true},
		{"session", `{"key":"k"}`, Credential{}, true},
		{KindOAuth, ``, Credential{}, true},
	} {
		got, err := DecodeData(tc.kind, []byte(tc.data))
		if (err != nil) != tc.bad || !tc.bad && got != tc.want {
			t.Errorf("%s %s: %+v %v", tc.kind, tc.data, got, err)
		}
	}
}

func jwt(payload string) string {
	return "h." + base64.RawURLEncoding.EncodeToString([]byte(payload)) + ".s"
}

func TestIdentityKey(t *testing.T) {
	for _, tc := range []struct {
		provider string
		c        oauth.Credentials
		want     string
	}{
		{"anthropic", oauth.Credentials{Email: " Me@X.org "}, "email:me@x.org"},
		{"anthropic", oauth.Credentials{AccountID: "acc", Email: "me@x.org"}, "email:me@x.org"},
		{"github-copilot", oauth.Credentials{AccountID: "acc", Email: "me@x.org"}, "account:acc"},
		{"openai-codex", oauth.Credentials{Access: jwt(`{"https://api.openai.com/profile":{"email":"P@x.org"},"https://api.openai.com/auth":{"chatgpt_account_id":"cg"}}`)}, "email:p@x.org"},
		{"kimi-code", oauth.Credentials{Access: jwt(`{"https://api.openai.com/auth":{"chatgpt_account_id":"cg"}}`)}, "account:cg"},
		{"kimi-code", oauth.Credentials{Access: jwt(`{"sub":"u1","user_id":"u2"}`)}, "account:u2"},
		{"anthropic", oauth.Credentials{Access: "sk-ant-oat01-opaque"}, ""},
	} {
		if got := IdentityKey(tc.provider, OAuth(tc.c)); got != tc.want {
			t.Errorf("%s %+v: %q, want %q", tc.provider, tc.c, got, tc.want)
		}
	}
	if IdentityKey("anthropic", APIKey("k")) != "" {
		t.Error("an API key has an identity")
	}
}

// FuzzDecodeData checks that any data column decodes without panicking
// and that what decodes survives a round trip through EncodeData.
func FuzzDecodeData(f *testing.F) {
	f.Add("oauth", []byte(`{"access":"a","refresh":"r","expires":9999999999999,"email":"x@y"}`))
	f.Add("api_key", []byte(`{"key":"sk"}`))
	f.Add("oauth", []byte(`{"expires":1e400}`))
	f.Fuzz(func(t *testing.T, kind string, data []byte) {
		c, err := DecodeData(Kind(kind), data)
		if err != nil {
			return
		}
		enc, err := c.EncodeData()
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		back, err := DecodeData(Kind(kind), enc)
		if err != nil || back != c {
			t.Fatalf("round trip of %s: %+v -> %s -> %+v %v", data, c, enc, back, err)
		}
		if bytes.Contains(enc, []byte("\n")) {
			t.Fatalf("multi-line data %s", enc)
		}
		_ = IdentityKey("anthropic", c)
	})
}
