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
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Google's OAuth token endpoint and the scope Vertex AI needs.
const (
	DefaultTokenURL = "https://oauth2.googleapis.com/token"
	CloudPlatform   = "https://www.googleapis.com/auth/cloud-platform"
)

// tokenTimeout bounds one token exchange.
const tokenTimeout = 30 * time.Second

// refreshMargin is how long before its expiry a cached token is replaced.
const refreshMargin = 5 * time.Minute

// ADC is application default credentials loaded from a JSON file: an
// authorized user ({"type":"authorized_user"}, written by `gcloud auth
// application-default login`), whose refresh token is exchanged for access
// tokens; a service account key ({"type":"service_account"}), whose
// private key signs a JWT bearer assertion (RFC 7523) for them; or an
// impersonated service account ({"type":"impersonated_service_account"},
// from `gcloud auth application-default login
// --impersonate-service-account`), whose source credentials (one of the
// other two) ask IAM Credentials' generateAccessToken for a token of the
// service account. Tokens are cached until refreshMargin before they
// expire; concurrent callers share one exchange. Workload identity
// federation (external_account) is refused with a message saying what
// works.
type ADC struct {
	file     adcFile
	key      *rsa.PrivateKey // service accounts
	source   *ADC            // impersonation: the credentials that ask for the token
	tokenURL string
	client   *http.Client
	now      func() time.Time

	sem    chan struct{} // held while a token is fetched
	token  string
	expiry time.Time
}

// adcFile is the JSON of a credentials file (the fields gopi uses).
type adcFile struct {
	Type           string `json:"type"`
	ClientID       string `json:"client_id"`
	ClientSecret   string `json:"client_secret"`
	RefreshToken   string `json:"refresh_token"`
	QuotaProjectID string `json:"quota_project_id"`
	ProjectID      string `json:"project_id"`
	ClientEmail    string `json:"client_email"`
	PrivateKey     string `json:"private_key"`
	PrivateKeyID   string `json:"private_key_id"`
	TokenURI       string `json:"token_uri"`
	// impersonated_service_account
	ImpersonationURL  string          `json:"service_account_impersonation_url"`
	SourceCredentials json.RawMessage `json:"source_credentials"`
	Delegates         []string        `json:"delegates"`
}

// CredentialsPath is where application default credentials are looked
// for: GOOGLE_APPLICATION_CREDENTIALS when set, otherwise gcloud's
// well-known file (~/.config/gcloud/application_default_credentials.json,
// %APPDATA%\gcloud\… on Windows). getenv is the caller's environment.
func CredentialsPath(getenv func(string) string) string {
	if p := strings.TrimSpace(getenv("GOOGLE_APPLICATION_CREDENTIALS")); p != "" {
		return p
	}
	const name = "application_default_credentials.json"
	if runtime.GOOS == "windows" {
		if d := getenv("APPDATA"); d != "" {
			return filepath.Join(d, "gcloud", name)
		}
		return ""
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "gcloud", name)
	}
	return ""
}

// LoadADC reads and parses the credentials file at path. client makes the
// token requests (http.DefaultClient when nil).
func LoadADC(path string, client *http.Client) (*ADC, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading Google application default credentials: %w (run `gcloud auth application-default login`, or fix GOOGLE_APPLICATION_CREDENTIALS)", err)
	}
	a, err := ParseADC(data, client)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// ParseADC parses a credentials file's JSON. The token endpoint is the
// file's token_uri, or DefaultTokenURL.
func ParseADC(data []byte, client *http.Client) (*ADC, error) {
	var f adcFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("application default credentials are not valid JSON: %v (run `gcloud auth application-default login` again)", err)
	}
	if client == nil {
		client = http.DefaultClient
	}
	a := &ADC{file: f, tokenURL: f.TokenURI, client: client, now: time.Now, sem: make(chan struct{}, 1)}
	if a.tokenURL == "" {
		a.tokenURL = DefaultTokenURL
	}
	switch f.Type {
	case "authorized_user":
		if f.ClientID == "" || f.ClientSecret == "" || f.RefreshToken == "" {
			return nil, errors.New("authorized_user credentials lack client_id, client_secret or refresh_token (run `gcloud auth application-default login` again)")
		}
	case "service_account":
		if f.ClientEmail == "" || f.PrivateKey == "" {
			return nil, errors.New("service_account credentials lack client_email or private_key (download a new key for the service account)")
		}
		key, err := parseRSAKey(f.PrivateKey)
		if err != nil {
			return nil, err
		}
		a.key = key
	case "impersonated_service_account":
		if f.ImpersonationURL == "" || len(f.SourceCredentials) == 0 {
			return nil, errors.New("impersonated_service_account credentials lack service_account_impersonation_url or source_credentials (run `gcloud auth application-default login --impersonate-service-account=…` again)")
		}
		src, err := ParseADC(f.SourceCredentials, client)
		if err != nil {
			return nil, fmt.Errorf("source_credentials: %w", err)
		}
		if src.source != nil {
			return nil, errors.New("source_credentials of an impersonated service account cannot be impersonated themselves")
		}
		a.source = src
	case "":
		return nil, errors.New(`application default credentials have no "type" (run ` + "`gcloud auth application-default login`" + ` again)`)
	default:
		return nil, fmt.Errorf("application default credentials of type %q are not supported by gopi; use `gcloud auth application-default login`, a service-account key file, or GOOGLE_CLOUD_API_KEY", f.Type)
	}
	return a, nil
}

// parseRSAKey decodes a PEM private key (PKCS #8, or PKCS #1).
func parseRSAKey(s string) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode([]byte(s))
	if block == nil {
		return nil, errors.New("service_account private_key is not a PEM block (download a new key for the service account)")
	}
	if k, err := x509.ParsePKCS8PrivateKey(block.Bytes); err == nil {
		if rk, ok := k.(*rsa.PrivateKey); ok {
			return rk, nil
		}
		return nil, errors.New("service_account private_key is not an RSA key (download a new JSON key for the service account)")
	}
	k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("service_account private_key cannot be read: %v (download a new key for the service account)", err)
	}
	return k, nil
}

// Kind returns the credentials' type: "authorized_user", "service_account"
// or "impersonated_service_account".
func (a *ADC) Kind() string { return a.file.Type }

// QuotaProject returns the file's quota_project_id ("" when unset).
func (a *ADC) QuotaProject() string { return a.file.QuotaProjectID }

// Token returns the cached access token, or exchanges the credentials for
// a new one when it expires within refreshMargin. The exchange is bounded
// by ctx and tokenTimeout; callers arriving meanwhile wait for its result.
func (a *ADC) Token(ctx context.Context) (string, error) {
	select {
	case a.sem <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-a.sem }()
	if a.token != "" && a.now().Add(refreshMargin).Before(a.expiry) {
		return a.token, nil
	}
	if a.source != nil {
		return a.impersonate(ctx)
	}
	form, err := a.grant()
	if err != nil {
		return "", err
	}
	tctx, cancel := context.WithTimeout(ctx, tokenTimeout)
	defer cancel()
	tok, life, err := exchange(tctx, a.client, a.tokenURL, form)
	if err != nil {
		if a.file.Type == "authorized_user" {
			return "", fmt.Errorf("%w (sign in again with `gcloud auth application-default login`)", err)
		}
		return "", fmt.Errorf("%w (check the service account key in GOOGLE_APPLICATION_CREDENTIALS)", err)
	}
	a.token, a.expiry = tok, a.now().Add(life)
	return tok, nil
}

// impersonate asks IAM Credentials for a token of the impersonated
// service account, authorised by the source credentials' token. The
// caller holds a.sem.
func (a *ADC) impersonate(ctx context.Context) (string, error) {
	src, err := a.source.Token(ctx)
	if err != nil {
		return "", err
	}
	delegates := a.file.Delegates
	if delegates == nil {
		delegates = []string{}
	}
	body, _ := json.Marshal(map[string]any{"scope": []string{CloudPlatform}, "delegates": delegates, "lifetime": "3600s"})
	tctx, cancel := context.WithTimeout(ctx, tokenTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(tctx, http.MethodPost, a.file.ImpersonationURL, strings.NewReader(string(body)))
	if err != nil {
		return "", fmt.Errorf("impersonation request to %s: %w", a.file.ImpersonationURL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+src)
	resp, err := a.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("impersonation request to %s failed: %w", a.file.ImpersonationURL, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("reading the impersonation response: %w", err)
	}
	var r struct {
		AccessToken string    `json:"accessToken"`
		ExpireTime  time.Time `json:"expireTime"`
		Error       struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(data, &r)
	if resp.StatusCode != http.StatusOK || r.AccessToken == "" {
		msg := r.Error.Message
		if msg == "" {
			msg = "no access token in the response"
		}
		return "", fmt.Errorf("Google refused to impersonate the service account: HTTP %d: %s (check that your account has roles/iam.serviceAccountTokenCreator on it)", resp.StatusCode, msg)
	}
	a.token, a.expiry = r.AccessToken, r.ExpireTime
	if a.expiry.IsZero() {
		a.expiry = a.now().Add(time.Hour)
	}
	return a.token, nil
}

// grant is the token request's form for the credentials' kind.
func (a *ADC) grant() (url.Values, error) {
	if a.file.Type == "authorized_user" {
		return url.Values{
			"grant_type":    {"refresh_token"},
			"client_id":     {a.file.ClientID},
			"client_secret": {a.file.ClientSecret},
			"refresh_token": {a.file.RefreshToken},
		}, nil
	}
	assertion, err := a.assertion()
	if err != nil {
		return nil, err
	}
	return url.Values{
		"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"},
		"assertion":  {assertion},
	}, nil
}

// assertion is the RS256-signed JWT a service account presents: issued by
// its email for the cloud-platform scope, addressed to the token endpoint,
// valid for an hour.
func (a *ADC) assertion() (string, error) {
	now := a.now()
	header := map[string]string{"alg": "RS256", "typ": "JWT"}
	if a.file.PrivateKeyID != "" {
		header["kid"] = a.file.PrivateKeyID
	}
	claims := map[string]any{
		"iss": a.file.ClientEmail, "scope": CloudPlatform, "aud": a.tokenURL,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
	h, _ := json.Marshal(header)
	c, _ := json.Marshal(claims)
	enc := base64.RawURLEncoding
	signing := enc.EncodeToString(h) + "." + enc.EncodeToString(c)
	sum := sha256.Sum256([]byte(signing))
	sig, err := rsa.SignPKCS1v15(rand.Reader, a.key, crypto.SHA256, sum[:])
	if err != nil {
		return "", fmt.Errorf("signing the service account assertion: %w", err)
	}
	return signing + "." + enc.EncodeToString(sig), nil
}

// exchange posts a token request and returns the access token and its
// lifetime.
func exchange(ctx context.Context, client *http.Client, tokenURL string, form url.Values) (string, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, tokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return "", 0, fmt.Errorf("Google token request to %s: %w", tokenURL, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return "", 0, fmt.Errorf("Google token request to %s failed: %w", tokenURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", 0, fmt.Errorf("reading Google's token response: %w", err)
	}
	var tr struct {
		AccessToken string      `json:"access_token"`
		ExpiresIn   json.Number `json:"expires_in"`
		Error       string      `json:"error"`
		Description string      `json:"error_description"`
	}
	_ = json.Unmarshal(body, &tr)
	if resp.StatusCode != http.StatusOK || tr.AccessToken == "" {
		reason := tr.Error
		if tr.Description != "" {
			reason += " (" + tr.Description + ")"
		}
		if reason == "" {
			reason = "no access token in the response"
		}
		return "", 0, fmt.Errorf("Google refused the application default credentials: HTTP %d: %s", resp.StatusCode, reason)
	}
	life := time.Hour
	if n, err := tr.ExpiresIn.Int64(); err == nil && n > 0 {
		life = time.Duration(n) * time.Second
	}
	return tr.AccessToken, life, nil
}
