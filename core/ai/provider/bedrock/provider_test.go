package bedrock

import (
	"regexp"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

// testModelID is a Claude id as the catalog lists it.
const testModelID = "anthropic.claude-sonnet-4-5-20250929-v1:0"

// testEnv is a fixed environment: static keys and a region, nothing from
// the process.
func testEnv(extra map[string]string) func(string) string {
	env := map[string]string{
		"AWS_ACCESS_KEY_ID":     "AKIDEXAMPLE",
		"AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
		"AWS_REGION":            "us-west-2",
		// No shared files from the machine running the tests.
		"AWS_CONFIG_FILE":             "testdata/no-such-config",
		"AWS_SHARED_CREDENTIALS_FILE": "testdata/no-such-credentials",
	}
	for k, v := range extra {
		if v == "" {
			delete(env, k)
		} else {
			env[k] = v
		}
	}
	return func(k string) string { return env[k] }
}

func testModel(base string) *ai.Model {
	return &ai.Model{
		ID: testModelID, Name: "Claude Sonnet 4.5", API: ai.APIBedrockConverseStream, Provider: "amazon-bedrock",
		BaseURL: base, Reasoning: true, Input: []string{ai.InputText, ai.InputImage},
		Cost:          ai.Prices{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
		ContextWindow: 200000, MaxTokens: 64000,
	}
}

// sigV4 is the shape of a SigV4 Authorization header for Bedrock in
// us-west-2 with the test key.
var sigV4 = regexp.MustCompile(`^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\d{8}/us-west-2/bedrock/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*x-amz-date[a-z0-9;-]*, Signature=[0-9a-f]{64}$`)

func TestScenarios(t *testing.T) {
	llmtest.Run(t, llmtest.Config{
		Provider: NewWithEnv(nil, testEnv(nil)),
		Model: func(base string) *ai.Model {
			m := testModel(base)
			m.Headers = map[string]string{"X-Model-Header": "m"}
			return m
		},
		ContentType: "application/vnd.amazon.eventstream",
		CheckRequest: func(t *testing.T, r mockllm.Request) {
			if r.Path != "/model/"+testModelID+"/converse-stream" {
				t.Errorf("path %q", r.Path)
			}
			if got := r.Header.Get("Authorization"); !sigV4.MatchString(got) {
				t.Errorf("Authorization %q is not a SigV4 signature for bedrock in us-west-2", got)
			}
			if r.Header.Get("X-Amz-Date") == "" || r.Header.Get("X-Model-Header") != "m" {
				t.Errorf("headers %v", r.Header)
			}
		},
	})
}
