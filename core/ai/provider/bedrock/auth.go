package bedrock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// DefaultRegion is the region used when neither the environment nor the
// profile names one.
const DefaultRegion = "us-east-1"

// credentialTimeout bounds one run of a profile's credential_process;
// requests to Bedrock itself are bounded by ai.Send's watchdogs.
const credentialTimeout = 30 * time.Second

// refreshBefore is how long before their expiry fetched credentials are
// fetched again.
const refreshBefore = 5 * time.Minute

// exportHint names the ways to use credentials gopi cannot fetch itself.
const exportHint = "export them with `eval \"$(aws configure export-credentials --format env)\"`, or give the profile a credential_process"

// settings are the environment variables that decide region, endpoint and
// credentials, read once per request through the provider's getenv. Their
// key is a digest, never the values: it keys the session cache.
type settings struct {
	Region, Profile                 string // AWS_REGION / AWS_DEFAULT_REGION, AWS_PROFILE
	ConfigFile, CredentialsFile     string // AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE (or under HOME)
	AccessKeyID, SecretKey, Session string // AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN
	BearerToken                     string // AWS_BEARER_TOKEN_BEDROCK (a Bedrock API key)
	WebIdentity                     bool   // AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN
	Container                       bool   // AWS_CONTAINER_CREDENTIALS_RELATIVE_URI or _FULL_URI
	Endpoint                        string // AWS_ENDPOINT_URL_BEDROCK_RUNTIME, then AWS_ENDPOINT_URL
	SkipAuth                        bool   // AWS_BEDROCK_SKIP_AUTH=1: dummy credentials for a proxy that signs itself
	ForceCache                      bool   // AWS_BEDROCK_FORCE_CACHE=1: cache points for any model id
}

// readSettings reads the settings through getenv (nil: none set).
func readSettings(getenv func(string) string) settings {
	get := func(names ...string) string {
		if getenv == nil {
			return ""
		}
		for _, n := range names {
			if v := strings.TrimSpace(getenv(n)); v != "" {
				return v
			}
		}
		return ""
	}
	flag := func(name string) bool {
		switch strings.ToLower(get(name)) {
		case "1", "true", "yes", "on":
			return true
		}
		return false
	}
	s := settings{
		Region: get("AWS_REGION", "AWS_DEFAULT_REGION"), Profile: get("AWS_PROFILE"),
		ConfigFile: get("AWS_CONFIG_FILE"), CredentialsFile: get("AWS_SHARED_CREDENTIALS_FILE"),
		AccessKeyID: get("AWS_ACCESS_KEY_ID"), SecretKey: get("AWS_SECRET_ACCESS_KEY"), Session: get("AWS_SESSION_TOKEN"),
		BearerToken: get("AWS_BEARER_TOKEN_BEDROCK"),
		WebIdentity: get("AWS_WEB_IDENTITY_TOKEN_FILE") != "" && get("AWS_ROLE_ARN") != "",
		Container:   get("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI") != "",
		Endpoint:    get("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "AWS_ENDPOINT_URL"),
		SkipAuth:    flag("AWS_BEDROCK_SKIP_AUTH"), ForceCache: flag("AWS_BEDROCK_FORCE_CACHE"),
	}
	if home := get("HOME", "USERPROFILE"); home != "" {
		if s.ConfigFile == "" {
			s.ConfigFile = filepath.Join(home, ".aws", "config")
		}
		if s.CredentialsFile == "" {
			s.CredentialsFile = filepath.Join(home, ".aws", "credentials")
		}
	}
	return s
}

// key is a digest of every setting, so sessions are cached per distinct
// environment without keeping secrets readable in the cache key.
func (s settings) key() string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%#v", s)))
	return hex.EncodeToString(h[:])
}

// credentials are AWS access keys; Expires is zero for keys that do not
// expire.
type credentials struct {
	AccessKeyID, SecretAccessKey, SessionToken string
	Expires                                    time.Time
}

// session is the resolved region and credential source of one
// environment. Credentials from a credential_process are cached until
// shortly before they expire.
type session struct {
	region string
	source string // where credentials come from, for error messages ("env AWS_PROFILE=dev", …)
	bearer bool   // a Bedrock API key: no AWS credentials needed

	static  *credentials // fixed keys; nil when fetched
	process string       // credential_process command line

	mu     sync.Mutex
	cached *credentials
}

// credentials returns the keys to sign with, running the profile's
// credential_process when there are none cached or they are about to
// expire.
func (s *session) credentials(ctx context.Context) (credentials, error) {
	if s.static != nil {
		return *s.static, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.cached; c != nil && (c.Expires.IsZero() || time.Until(c.Expires) > refreshBefore) {
		return *c, nil
	}
	c, err := runCredentialProcess(ctx, s.process, credentialTimeout)
	if err != nil {
		return credentials{}, &CredentialsError{Source: s.source, Err: err}
	}
	s.cached = &c
	return c, nil
}

// loadSession resolves region and credentials, in this order: a Bedrock
// API key (only the region is needed), AWS_BEDROCK_SKIP_AUTH's dummy keys,
// the profile named by AWS_PROFILE, static keys from the environment, web
// identity and container credentials (refused: they need AWS's STS and
// container clients), then the default profile. A profile gives static
// keys or a credential_process; SSO and assumed-role profiles are refused
// with the way to export their keys. The region comes from the
// environment, then the profile, then DefaultRegion.
func loadSession(s settings) (*session, error) {
	sess := &session{region: s.Region}
	profileName := s.Profile
	if profileName == "" {
		profileName = "default"
	}
	prof, found, err := loadProfile(s.ConfigFile, s.CredentialsFile, profileName)
	if err != nil {
		return nil, err
	}
	if s.Profile != "" && !found {
		return nil, fmt.Errorf("AWS profile %q (AWS_PROFILE) is not in the shared AWS config or credentials file: fix the name, or create it with `aws configure --profile %s`", s.Profile, s.Profile)
	}
	if sess.region == "" {
		sess.region = prof["region"]
	}
	if sess.region == "" {
		sess.region = DefaultRegion
	}
	switch {
	case s.BearerToken != "":
		sess.source, sess.bearer = "env AWS_BEARER_TOKEN_BEDROCK", true
	case s.SkipAuth:
		sess.source = "env AWS_BEDROCK_SKIP_AUTH (no signing)"
		sess.static = &credentials{AccessKeyID: "dummy-access-key", SecretAccessKey: "dummy-secret-key"}
	case s.Profile != "":
		sess.source = "env AWS_PROFILE=" + s.Profile
		if err := sess.fromProfile(s.Profile, prof); err != nil {
			return nil, err
		}
	case s.AccessKeyID != "" && s.SecretKey != "":
		sess.source = "env AWS_ACCESS_KEY_ID"
		sess.static = &credentials{AccessKeyID: s.AccessKeyID, SecretAccessKey: s.SecretKey, SessionToken: s.Session}
	case s.WebIdentity:
		return nil, fmt.Errorf("gopi does not exchange web identity tokens (AWS_WEB_IDENTITY_TOKEN_FILE) for Bedrock credentials: %s", exportHint)
	case s.Container:
		return nil, fmt.Errorf("gopi does not fetch container credentials (AWS_CONTAINER_CREDENTIALS_*) for Bedrock: %s", exportHint)
	case found:
		sess.source = "the default profile of the shared AWS files"
		if err := sess.fromProfile("default", prof); err != nil {
			return nil, err
		}
	default:
		sess.source = "the environment and the shared AWS files"
	}
	return sess, nil
}

// fromProfile takes a profile's static keys or credential_process, or
// refuses the kinds gopi does not fetch.
func (s *session) fromProfile(name string, prof map[string]string) error {
	switch {
	case prof["aws_access_key_id"] != "" && prof["aws_secret_access_key"] != "":
		s.static = &credentials{AccessKeyID: prof["aws_access_key_id"], SecretAccessKey: prof["aws_secret_access_key"], SessionToken: prof["aws_session_token"]}
	case prof["credential_process"] != "":
		s.process = prof["credential_process"]
	case prof["sso_session"] != "" || prof["sso_start_url"] != "":
		return fmt.Errorf("AWS profile %q uses SSO, which gopi does not sign in to for Bedrock: after `aws sso login --profile %s`, %s", name, name, exportHint)
	case prof["role_arn"] != "" || prof["web_identity_token_file"] != "":
		return fmt.Errorf("AWS profile %q assumes a role, which gopi does not do for Bedrock: %s", name, exportHint)
	}
	return nil
}
