package vertex

import (
	"testing"
)

// FuzzParseADC feeds arbitrary credentials files to the parser: it must
// never panic, and what it accepts is one of the two supported kinds with
// the fields its grant needs.
func FuzzParseADC(f *testing.F) {
	f.Add([]byte(`{"type":"authorized_user","client_id":"c","client_secret":"s","refresh_token":"r","quota_project_id":"q"}`))
	f.Add([]byte(`{"type":"service_account","client_email":"a@b","private_key":"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"}`))
	f.Add([]byte(`{"type":"external_account","audience":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseADC(data, nil)
		if err != nil {
			return
		}
		switch a.Kind() {
		case "authorized_user":
			if a.file.RefreshToken == "" || a.file.ClientID == "" || a.file.ClientSecret == "" {
				t.Errorf("accepted an authorized_user without its grant fields: %s", data)
			}
		case "service_account":
			if a.key == nil || a.file.ClientEmail == "" {
				t.Errorf("accepted a service_account without a key: %s", data)
			}
		case "impersonated_service_account":
			if a.source == nil || a.file.ImpersonationURL == "" {
				t.Errorf("accepted an impersonation without its source: %s", data)
			}
		default:
			t.Errorf("accepted kind %q", a.Kind())
		}
		if a.tokenURL == "" {
			t.Error("no token URL")
		}
	})
}
