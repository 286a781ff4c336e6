package auth

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// A sign-in whose token the provider refused before its expiry is
// refreshed by Renew although it has not expired, stored back, and a
// second Renew with the same stale key (a concurrent caller) does not
// refresh again.
func TestRenewRefreshesAValidToken(t *testing.T) {
	p := &fakeProvider{id: "anthropic", refresh: func(context.Context, oauth.Credentials) (oauth.Credentials, error) {
		return oauth.Credentials{Access: "new-access", Refresh: "new-refresh", Expires: testNow.Add(2 * time.Hour).UnixMilli()}, nil
	}}
	s := newStore(t, Options{Path: filepath.Join(t.TempDir(), DBFile), Providers: providers(p)})
	c := oauth.Credentials{Access: "old-access", Refresh: "old-refresh", Expires: testNow.Add(time.Hour).UnixMilli()}
	if err := s.Save(context.Background(), "anthropic", OAuth(c), false); err != nil {
		t.Fatal(err)
	}
	if k, _, _, _ := s.Resolve(context.Background(), "anthropic", ""); k != "key:old-access" || p.calls.Load() != 0 {
		t.Fatalf("resolve %q, %d refreshes", k, p.calls.Load())
	}
	for i := 0; i < 2; i++ {
		k, _, err := s.Renew(context.Background(), "anthropic", "key:old-access")
		if err != nil || k != "key:new-access" {
			t.Fatalf("renew %d: %q %v", i, k, err)
		}
	}
	if n := p.calls.Load(); n != 1 {
		t.Fatalf("%d refreshes", n)
	}
	if rows := ownRows(t, s, "provider = 'anthropic'", false); len(rows) != 1 || rows[0].cred.OAuth.Refresh != "new-refresh" {
		t.Fatalf("%+v", rows)
	}
}
