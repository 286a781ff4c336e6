package vertex

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// tokenServer is a local stand-in for Google's OAuth token endpoint: it
// answers the refresh-token and JWT-bearer grants with numbered tokens,
// or with the error it is told to give.
type tokenServer struct {
	*httptest.Server
	mu    sync.Mutex
	forms []url.Values
	fail  string // OAuth error code to answer with ("" for success)
}

func newTokenServer(t *testing.T) *tokenServer {
	ts := &tokenServer{}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			http.Error(w, "want a form POST", http.StatusBadRequest)
			return
		}
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		ts.mu.Lock()
		ts.forms = append(ts.forms, r.PostForm)
		n, fail := len(ts.forms), ts.fail
		ts.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if fail != "" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":%q,"error_description":"Token has been expired or revoked."}`, fail)
			return
		}
		fmt.Fprintf(w, `{"access_token":"ya29.token-%d","expires_in":3599,"token_type":"Bearer"}`, n)
	}))
	t.Cleanup(ts.Close)
	return ts
}

func (ts *tokenServer) requests() []url.Values {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]url.Values(nil), ts.forms...)
}

// userFile is an authorized_user credentials file pointing at tokenURL.
func userFile(tokenURL string) []byte {
	return []byte(fmt.Sprintf(`{"type":"authorized_user","client_id":"cid.apps.googleusercontent.com","client_secret":"csecret","refresh_token":"1//refresh","quota_project_id":"billing-proj","token_uri":%q}`, tokenURL))
}

func TestAuthorizedUserRefreshAndCache(t *testing.T) {
	ts := newTokenServer(t)
	a, err := ParseADC(userFile(ts.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_700_000_000, 0)
	a.now = func() time.Time { return now }
	for i := 0; i < 3; i++ {
		tok, err := a.Token(context.Background())
		if err != nil || tok != "ya29.token-1" {
			t.Fatalf("token %d = %q, %v", i, tok, err)
		}
	}
	forms := ts.requests()
	if len(forms) != 1 {
		t.Fatalf("%d token requests for three calls, want 1 (cached)", len(forms))
	}
	f := forms[0]
	if f.Get("grant_type") != "refresh_token" || f.Get("refresh_token") != "1//refresh" || f.Get("client_id") != "cid.apps.googleusercontent.com" || f.Get("client_secret") != "csecret" {
		t.Errorf("refresh form = %v", f)
	}
	if a.QuotaProject() != "billing-proj" || a.Kind() != "authorized_user" {
		t.Errorf("quota project %q kind %q", a.QuotaProject(), a.Kind())
	}
	// Within five minutes of the expiry the token is replaced.
	now = now.Add(3599*time.Second - refreshMargin)
	if tok, err := a.Token(context.Background()); err != nil || tok != "ya29.token-2" {
		t.Fatalf("token near expiry = %q, %v; want a fresh one", tok, err)
	}
}

func TestConcurrentCallersShareOneExchange(t *testing.T) {
	ts := newTokenServer(t)
	a, err := ParseADC(userFile(ts.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := a.Token(context.Background()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := len(ts.requests()); n != 1 {
		t.Errorf("%d token requests from 8 concurrent callers, want 1", n)
	}
}

func TestRevokedRefreshToken(t *testing.T) {
	ts := newTokenServer(t)
	ts.fail = "invalid_grant"
	a, err := ParseADC(userFile(ts.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Token(context.Background())
	if err == nil || !strings.Contains(err.Error(), "invalid_grant (Token has been expired or revoked.)") || !strings.Contains(err.Error(), "gcloud auth application-default login") {
		t.Errorf("error = %v", err)
	}
	if strings.Contains(err.Error(), "1//refresh") || strings.Contains(err.Error(), "csecret") {
		t.Errorf("error shows a secret: %v", err)
	}
}

func TestServiceAccountAssertion(t *testing.T) {
	ts := newTokenServer(t)
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	pemKey := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	file, _ := json.Marshal(map[string]string{
		"type": "service_account", "project_id": "p", "private_key_id": "kid-1", "private_key": pemKey,
		"client_email": "bot@p.iam.gserviceaccount.com", "token_uri": ts.URL,
	})
	a, err := ParseADC(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_700_000_000, 0)
	a.now = func() time.Time { return now }
	if tok, err := a.Token(context.Background()); err != nil || tok != "ya29.token-1" {
		t.Fatalf("token = %q, %v", tok, err)
	}
	f := ts.requests()[0]
	if f.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
		t.Fatalf("grant = %v", f)
	}
	parts := strings.Split(f.Get("assertion"), ".")
	if len(parts) != 3 {
		t.Fatalf("assertion has %d parts", len(parts))
	}
	dec := base64.RawURLEncoding
	var header map[string]string
	var claims map[string]any
	h, _ := dec.DecodeString(parts[0])
	c, _ := dec.DecodeString(parts[1])
	sig, _ := dec.DecodeString(parts[2])
	_ = json.Unmarshal(h, &header)
	_ = json.Unmarshal(c, &claims)
	if header["alg"] != "RS256" || header["kid"] != "kid-1" {
		t.Errorf("header = %v", header)
	}
	if claims["iss"] != "bot@p.iam.gserviceaccount.com" || claims["scope"] != CloudPlatform || claims["aud"] != ts.URL ||
		claims["iat"] != float64(now.Unix()) || claims["exp"] != float64(now.Add(time.Hour).Unix()) {
		t.Errorf("claims = %v", claims)
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if err := rsa.VerifyPKCS1v15(&key.PublicKey, crypto.SHA256, sum[:], sig); err != nil {
		t.Errorf("signature does not verify: %v", err)
	}
}

func TestParseADCRefusals(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{`{`, "not valid JSON"},
		{`{}`, `no "type"`},
		{`{"type":"external_account"}`, `type "external_account" are not supported`},
		{`{"type":"authorized_user","client_id":"x"}`, "lack client_id, client_secret or refresh_token"},
		{`{"type":"service_account","client_email":"a@b","private_key":"nope"}`, "not a PEM block"},
	} {
		if _, err := ParseADC([]byte(c.file), nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.file, err, c.want)
		}
	}
}

func TestCredentialsPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("gcloud keeps its file under %APPDATA% there")
	}
	env := map[string]string{"HOME": "/home/u"}
	getenv := func(k string) string { return env[k] }
	if got := CredentialsPath(getenv); got != "/home/u/.config/gcloud/application_default_credentials.json" {
		t.Errorf("default path = %q", got)
	}
	env["GOOGLE_APPLICATION_CREDENTIALS"] = "/keys/sa.json"
	if got := CredentialsPath(getenv); got != "/keys/sa.json" {
		t.Errorf("GOOGLE_APPLICATION_CREDENTIALS path = %q", got)
	}
}

func TestImpersonatedServiceAccount(t *testing.T) {
	ts := newTokenServer(t)
	var got struct {
		auth string
		body map[string]any
	}
	iam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.auth = r.Header.Get("Authorization")
		_ = json.NewDecoder(r.Body).Decode(&got.body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"accessToken":"ya29.impersonated","expireTime":"2030-01-01T00:00:00Z"}`)
	}))
	t.Cleanup(iam.Close)
	file := fmt.Sprintf(`{"type":"impersonated_service_account","service_account_impersonation_url":%q,"delegates":["d@p.iam.gserviceaccount.com"],"source_credentials":%s}`,
		iam.URL+"/v1/projects/-/serviceAccounts/sa@p.iam.gserviceaccount.com:generateAccessToken", userFile(ts.URL))
	a, err := ParseADC([]byte(file), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if tok, err := a.Token(context.Background()); err != nil || tok != "ya29.impersonated" {
			t.Fatalf("token = %q, %v", tok, err)
		}
	}
	if got.auth != "Bearer ya29.token-1" || len(ts.requests()) != 1 {
		t.Errorf("IAM saw %q after %d source exchanges", got.auth, len(ts.requests()))
	}
	if scope := got.body["scope"].([]any); scope[0] != CloudPlatform || got.body["lifetime"] != "3600s" || got.body["delegates"].([]any)[0] != "d@p.iam.gserviceaccount.com" {
		t.Errorf("generateAccessToken body = %v", got.body)
	}
}
