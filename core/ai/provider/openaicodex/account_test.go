package openaicodex

import (
	"encoding/base64"
	"errors"
	"testing"
)

func TestAccountID(t *testing.T) {
	std := base64.StdEncoding.EncodeToString([]byte(`{"https://api.openai.com/auth":{"chatgpt_account_id":"acct/+?"}}`))
	for _, tc := range []struct {
		name, token, want string
	}{
		{"url alphabet unpadded", testToken, "acct_test_1"},
		{"standard alphabet padded", "h." + std + ".s", "acct/+?"},
		{"no auth claim", jwt(`{"sub":"u"}`), ""},
		{"claim without account", jwt(`{"https://api.openai.com/auth":{"chatgpt_plan_type":"plus"}}`), ""},
		{"account not a string", jwt(`{"https://api.openai.com/auth":{"chatgpt_account_id":7}}`), ""},
		{"two segments", "a.b", ""},
		{"payload not base64", "a.%%%.c", ""},
		{"payload not JSON", "a." + base64.RawURLEncoding.EncodeToString([]byte("nope")) + ".c", ""},
		{"an API key", "sk-proj-abc", ""},
	} {
		got, err := AccountID(tc.token)
		if got != tc.want || (tc.want == "") != errors.Is(err, ErrNoAccountID) {
			t.Errorf("%s: AccountID = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

// FuzzAccountID: any token yields an account or ErrNoAccountID, never a
// panic, and a found account is never empty.
func FuzzAccountID(f *testing.F) {
	f.Add(testToken)
	f.Add("a.b.c")
	f.Add("..")
	f.Add("x." + base64.RawURLEncoding.EncodeToString([]byte(`{"https://api.openai.com/auth":null}`)) + ".y")
	f.Fuzz(func(t *testing.T, token string) {
		got, err := AccountID(token)
		if (err == nil) == (got == "") {
			t.Fatalf("AccountID(%q) = %q, %v", token, got, err)
		}
		if err != nil && !errors.Is(err, ErrNoAccountID) {
			t.Fatalf("unexpected error %v", err)
		}
	})
}
