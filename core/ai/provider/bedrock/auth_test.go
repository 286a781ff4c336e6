package bedrock

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// writeFile writes a test file or fails the test.
func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

// A profile's credential_process is run once and its keys (with the
// session token) sign the requests until they near expiry; a failing
// process is a one-line error with its stderr and none of its output.
func TestCredentialProcess(t *testing.T) {
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	script := filepath.Join(dir, "creds.sh")
	writeFile(t, script, "#!/bin/sh\necho run >> '"+runs+"'\n"+
		`echo '{"Version":1,"AccessKeyId":"AKIDPROCESS","SecretAccessKey":"procsecret","SessionToken":"proctoken","Expiration":"2999-01-01T00:00:00Z"}'`+"\n", 0o700)
	failing := filepath.Join(dir, "fail.sh")
	writeFile(t, failing, "#!/bin/sh\necho '{\"SecretAccessKey\":\"leaked\"}'\necho 'token expired, run aws sso login' >&2\nexit 3\n", 0o700)
	config := filepath.Join(dir, "config")
	writeFile(t, config, "[profile proc]\ncredential_process = "+script+"\nregion = ap-south-1\n[profile broken]\ncredential_process = "+failing+"\n", 0o600)

	rec := newRecorder(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("a")}}, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("b")}})
	p := NewWithEnv(nil, testEnv(map[string]string{"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_REGION": "",
		"AWS_PROFILE": "proc", "AWS_CONFIG_FILE": config}))
	for range 2 {
		if m := stream(t, p, simpleRequest(rec.srv.URL)); m.StopReason != ai.StopReasonStop {
			t.Fatalf("request failed: %s", m.ErrorMessage)
		}
	}
	got := rec.last(t)
	if auth := got.Header.Get("Authorization"); !strings.Contains(auth, "Credential=AKIDPROCESS/") || !strings.Contains(auth, "/ap-south-1/bedrock/") {
		t.Errorf("Authorization %q, want the process's key and the profile's region", auth)
	}
	if tok := got.Header.Get("X-Amz-Security-Token"); tok != "proctoken" {
		t.Errorf("session token %q", tok)
	}
	if data, _ := os.ReadFile(runs); strings.Count(string(data), "run") != 1 {
		t.Errorf("credential_process ran %d times, want once (cached)", strings.Count(string(data), "run"))
	}

	m := run(t, testEnv(map[string]string{"AWS_PROFILE": "broken", "AWS_CONFIG_FILE": config}), simpleRequest(rec.srv.URL))
	if m.StopReason != ai.StopReasonError || !strings.Contains(m.ErrorMessage, "token expired, run aws sso login") ||
		strings.Contains(m.ErrorMessage, "leaked") || strings.Contains(m.ErrorMessage, "\n") {
		t.Errorf("failing process: %q", m.ErrorMessage)
	}
}

// What needs AWS's own clients (SSO, assumed roles, web identity,
// container credentials) is refused before anything is sent, in one line
// naming the way to export keys instead.
func TestRefusedCredentialKinds(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config")
	writeFile(t, config, "[profile sso]\nsso_session = corp\nsso_account_id = 1\n[profile role]\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = sso\n", 0o600)
	rec := newRecorder(t)
	for name, extra := range map[string]map[string]string{
		"sso":          {"AWS_PROFILE": "sso"},
		"role":         {"AWS_PROFILE": "role"},
		"web identity": {"AWS_ACCESS_KEY_ID": "", "AWS_WEB_IDENTITY_TOKEN_FILE": "/tok", "AWS_ROLE_ARN": "arn:aws:iam::1:role/x"},
		"container":    {"AWS_ACCESS_KEY_ID": "", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "/v2/creds"},
	} {
		extra["AWS_CONFIG_FILE"] = config
		m := run(t, testEnv(extra), simpleRequest(rec.srv.URL))
		if m.StopReason != ai.StopReasonError || !strings.Contains(m.ErrorMessage, "aws configure export-credentials") || strings.Contains(m.ErrorMessage, "\n") {
			t.Errorf("%s: %q", name, m.ErrorMessage)
		}
	}
	if len(rec.reqs) != 0 {
		t.Errorf("%d requests were sent", len(rec.reqs))
	}
}

// Without AWS_PROFILE or keys in the environment, the default profile of
// the files under HOME gives keys and region.
func TestDefaultProfileUnderHome(t *testing.T) {
	home := t.TempDir()
	os.Mkdir(filepath.Join(home, ".aws"), 0o700)
	writeFile(t, filepath.Join(home, ".aws", "config"), "# comment\n[default]\nregion = ca-central-1\ns3 =\n  max_concurrent_requests = 4\n", 0o600)
	writeFile(t, filepath.Join(home, ".aws", "credentials"), "[default]\r\nAWS_ACCESS_KEY_ID = AKIDDEFAULT\r\naws_secret_access_key=defsecret\r\n", 0o600)
	env := testEnv(map[string]string{"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_REGION": "",
		"AWS_CONFIG_FILE": "", "AWS_SHARED_CREDENTIALS_FILE": "", "HOME": home})
	rec := newRecorder(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	if m := run(t, env, simpleRequest(rec.srv.URL)); m.StopReason != ai.StopReasonStop {
		t.Fatalf("request failed: %s", m.ErrorMessage)
	}
	if auth := rec.last(t).Header.Get("Authorization"); !strings.Contains(auth, "Credential=AKIDDEFAULT/") || !strings.Contains(auth, "/ca-central-1/bedrock/") {
		t.Errorf("Authorization %q", auth)
	}
}

// The public endpoint follows the region; an endpoint variable or a
// non-AWS base URL wins; model ids are escaped as AWS escapes them.
func TestEndpointFor(t *testing.T) {
	catalog := &ai.Request{Model: &ai.Model{BaseURL: "https://bedrock-runtime.us-east-1.amazonaws.com"}}
	for _, c := range []struct {
		s      settings
		req    *ai.Request
		region string
		want   string
	}{
		{settings{}, catalog, "eu-west-1", "https://bedrock-runtime.eu-west-1.amazonaws.com"},
		{settings{}, catalog, "cn-north-1", "https://bedrock-runtime.cn-north-1.amazonaws.com.cn"},
		{settings{Endpoint: "https://vpce.example/"}, catalog, "eu-west-1", "https://vpce.example"},
		{settings{}, &ai.Request{Model: &ai.Model{BaseURL: "http://127.0.0.1:9/"}}, "eu-west-1", "http://127.0.0.1:9"},
	} {
		if got := endpointFor(c.s, c.req, c.region); got != c.want {
			t.Errorf("%+v in %s: %s, want %s", c.s, c.region, got, c.want)
		}
	}
	if got := escapeSegment("arn:aws:bedrock:x/y v~1.0_-"); got != "arn%3Aaws%3Abedrock%3Ax%2Fy%20v~1.0_-" {
		t.Errorf("escapeSegment: %s", got)
	}
}

// stream runs one request on p.
func stream(t *testing.T, p *Provider, req *ai.Request) *ai.AssistantMessage {
	t.Helper()
	ctx := t.Context()
	return p.Stream(ctx, req).Result(ctx)
}

// FuzzParseINI: any text parses without panicking into sections whose
// keys are lower-case and trimmed and whose values hold no line break.
func FuzzParseINI(f *testing.F) {
	f.Add("[default]\nregion = us-east-1\n")
	f.Add("[profile dev]\naws_access_key_id=A\n; c\n# c\ns3 =\n  x = 1\n[broken\nk=v\n")
	f.Add("\r\n[ profile   x ]\r\nK = =v= \r\n")
	f.Fuzz(func(t *testing.T, text string) {
		for name, sec := range parseINI(text) {
			if strings.ContainsAny(name, "\n]") {
				t.Fatalf("section name %q", name)
			}
			for k, v := range sec {
				if k != strings.ToLower(strings.TrimSpace(k)) || strings.ContainsAny(k+v, "\n") || v != strings.TrimSpace(v) {
					t.Fatalf("key %q value %q", k, v)
				}
			}
		}
	})
}

// FuzzProcessOutput: whatever a credential_process prints, the result is
// keys or an error that does not repeat the output.
func FuzzProcessOutput(f *testing.F) {
	f.Add([]byte(`{"Version":1,"AccessKeyId":"A","SecretAccessKey":"S","Expiration":"2030-01-01T00:00:00Z"}`))
	f.Add([]byte(`{"Version":2}`))
	f.Add([]byte(`{"Version":1,"AccessKeyId":"A","SecretAccessKey":"S","Expiration":"soon"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseProcessOutput(data)
		if err == nil && (c.AccessKeyID == "" || c.SecretAccessKey == "") {
			t.Fatalf("keys without an error: %+v", c)
		}
		if err != nil && len(data) > 12 && strings.Contains(err.Error(), string(data)) {
			t.Fatalf("error repeats the output: %v", err)
		}
	})
}

// A credential_process that does not finish is stopped at the timeout,
// its child included.
func TestCredentialProcessTimeout(t *testing.T) {
	_, err := runCredentialProcess(t.Context(), "sleep 30 & sleep 30", 50*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "did not finish within") {
		t.Errorf("hanging process: %v", err)
	}
}

// The exception name comes from x-amzn-ErrorType, else the body's __type.
func TestErrorCode(t *testing.T) {
	for _, c := range [][3]string{
		{"ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/", "", "ThrottlingException"},
		{"", "com.amazon.bedrock#ValidationException", "ValidationException"},
		{"", "", ""},
	} {
		if got := errorCode(c[0], c[1]); got != c[2] {
			t.Errorf("%q %q: %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
