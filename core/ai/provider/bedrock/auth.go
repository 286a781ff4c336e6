package bedrock

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/endpointcreds"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// DefaultRegion is the region used when neither the environment nor the
// profile names one.
const DefaultRegion = "us-east-1"

// credentialTimeout bounds one credential fetch (SSO, STS, a container
// endpoint, IMDS); requests to Bedrock itself are bounded by ai.Send's
// watchdogs.
const credentialTimeout = 30 * time.Second

// ecsCredentialsHost is where AWS_CONTAINER_CREDENTIALS_RELATIVE_URI points.
const ecsCredentialsHost = "http://169.254.170.2"

// settings are the environment variables that decide region, endpoint and
// credentials, read once per request through the provider's getenv. Their
// String form is a digest, never the values: it keys the session cache.
type settings struct {
	Region, Profile                  string // AWS_REGION / AWS_DEFAULT_REGION, AWS_PROFILE
	ConfigFile, CredentialsFile      string // AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE
	AccessKeyID, SecretKey, Session  string // AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN
	BearerToken                      string // AWS_BEARER_TOKEN_BEDROCK (a Bedrock API key)
	WebIdentityFile, RoleARN, RoleSN string // AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN, AWS_ROLE_SESSION_NAME
	ContainerRelURI, ContainerURI    string // AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI
	ContainerToken                   string // AWS_CONTAINER_AUTHORIZATION_TOKEN
	Endpoint                         string // AWS_ENDPOINT_URL_BEDROCK_RUNTIME, then AWS_ENDPOINT_URL
	CABundle                         string // AWS_CA_BUNDLE: extra roots for credential fetches
	SkipAuth                         bool   // AWS_BEDROCK_SKIP_AUTH=1: dummy credentials for a proxy that signs itself
	ForceCache                       bool   // AWS_BEDROCK_FORCE_CACHE=1: cache points for any model id
	IMDS                             bool   // AWS_EC2_METADATA_DISABLED=false: ask the EC2 instance metadata service last
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
	return settings{
		Region: get("AWS_REGION", "AWS_DEFAULT_REGION"), Profile: get("AWS_PROFILE"),
		ConfigFile: get("AWS_CONFIG_FILE"), CredentialsFile: get("AWS_SHARED_CREDENTIALS_FILE"),
		AccessKeyID: get("AWS_ACCESS_KEY_ID"), SecretKey: get("AWS_SECRET_ACCESS_KEY"), Session: get("AWS_SESSION_TOKEN"),
		BearerToken:     get("AWS_BEARER_TOKEN_BEDROCK"),
		WebIdentityFile: get("AWS_WEB_IDENTITY_TOKEN_FILE"), RoleARN: get("AWS_ROLE_ARN"), RoleSN: get("AWS_ROLE_SESSION_NAME"),
		ContainerRelURI: get("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"), ContainerURI: get("AWS_CONTAINER_CREDENTIALS_FULL_URI"),
		ContainerToken: get("AWS_CONTAINER_AUTHORIZATION_TOKEN"),
		Endpoint:       get("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "AWS_ENDPOINT_URL"), CABundle: get("AWS_CA_BUNDLE"),
		SkipAuth: flag("AWS_BEDROCK_SKIP_AUTH"), ForceCache: flag("AWS_BEDROCK_FORCE_CACHE"),
		IMDS: strings.EqualFold(get("AWS_EC2_METADATA_DISABLED"), "false"),
	}
}

// key is a digest of every setting, so sessions are cached per distinct
// environment without keeping secrets readable in the cache key.
func (s settings) key() string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%#v", s)))
	return hex.EncodeToString(h[:])
}

// session is a loaded AWS configuration. Its
// credentials provider caches what it fetched until shortly before expiry.
type session struct {
	cfg    aws.Config
	source string // where credentials come from, for error messages ("env AWS_PROFILE=dev", …)
}

// loadSession resolves region and credentials: AWS_BEDROCK_SKIP_AUTH's
// dummy keys, a profile named by AWS_PROFILE (static keys, SSO, assumed
// roles, credential_process: the SDK's shared-config chain), static keys
// from the environment, web identity, container credentials, then the
// default profile and, when enabled, EC2 instance metadata. A bearer token
// needs no credentials; region still comes from the environment or the
// profile. Credential fetches time out after credentialTimeout.
func loadSession(ctx context.Context, s settings) (*session, error) {
	// The SDK's own client: it can take AWS_CA_BUNDLE, which a plain
	// *http.Client cannot.
	credClient := awshttp.NewBuildableClient().WithTimeout(credentialTimeout)
	opts := []func(*config.LoadOptions) error{
		config.WithHTTPClient(credClient),
		config.WithRetryMaxAttempts(1),
	}
	if s.CABundle != "" {
		pem, err := os.ReadFile(s.CABundle)
		if err != nil {
			return nil, fmt.Errorf("AWS_CA_BUNDLE: %w (point it at a PEM file of certificates, or unset it)", err)
		}
		opts = append(opts, config.WithCustomCABundle(bytes.NewReader(pem)))
	}
	if s.Region != "" {
		opts = append(opts, config.WithRegion(s.Region))
	}
	if s.ConfigFile != "" {
		opts = append(opts, config.WithSharedConfigFiles([]string{s.ConfigFile}))
	}
	if s.CredentialsFile != "" {
		opts = append(opts, config.WithSharedCredentialsFiles([]string{s.CredentialsFile}))
	}
	if !s.IMDS {
		opts = append(opts, config.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	source, webIdentity := "", false
	switch {
	case s.BearerToken != "":
		source = "env AWS_BEARER_TOKEN_BEDROCK"
	case s.SkipAuth:
		source = "env AWS_BEDROCK_SKIP_AUTH (no signing)"
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("dummy-access-key", "dummy-secret-key", "")))
	case s.Profile != "":
		source = "profile " + s.Profile + " (env AWS_PROFILE)"
		opts = append(opts, config.WithSharedConfigProfile(s.Profile))
	case s.AccessKeyID != "" && s.SecretKey != "":
		source = "env AWS_ACCESS_KEY_ID"
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(s.AccessKeyID, s.SecretKey, s.Session)))
	case s.WebIdentityFile != "" && s.RoleARN != "":
		source = "web identity (env AWS_WEB_IDENTITY_TOKEN_FILE)"
		webIdentity = true
	case s.ContainerRelURI != "" || s.ContainerURI != "":
		source = "container credentials (env AWS_CONTAINER_CREDENTIALS_*)"
		uri := s.ContainerURI
		if s.ContainerRelURI != "" {
			uri = ecsCredentialsHost + s.ContainerRelURI
		}
		opts = append(opts, config.WithCredentialsProvider(aws.NewCredentialsCache(endpointcreds.New(uri, func(o *endpointcreds.Options) {
			o.HTTPClient = credClient
			o.AuthorizationToken = s.ContainerToken
		}))))
	default:
		source = "the default profile of the shared AWS files"
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, profileError(s, err)
	}
	if webIdentity {
		// The role is assumed with STS in the configured region.
		roleSession := s.RoleSN
		if roleSession == "" {
			roleSession = "gopi"
		}
		cfg.Credentials = aws.NewCredentialsCache(stscreds.NewWebIdentityRoleProvider(sts.NewFromConfig(cfg), s.RoleARN,
			stscreds.IdentityTokenFile(s.WebIdentityFile), func(o *stscreds.WebIdentityRoleOptions) { o.RoleSessionName = roleSession }))
	}
	if cfg.Region == "" {
		cfg.Region = DefaultRegion
	}
	return &session{cfg: cfg, source: source}, nil
}

// profileError explains a configuration that could not be loaded.
func profileError(s settings, err error) error {
	if s.Profile != "" && strings.Contains(err.Error(), "failed to get shared config profile") {
		return fmt.Errorf("AWS profile %q (AWS_PROFILE) is not in the shared AWS config or credentials file: fix the name, or create it with `aws configure --profile %s` or `aws configure sso`", s.Profile, s.Profile)
	}
	return fmt.Errorf("loading the AWS configuration failed: %w (check ~/.aws/config, ~/.aws/credentials and the AWS_* variables)", err)
}
