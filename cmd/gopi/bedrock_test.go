package main

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// gopi ai and gopi models with an Amazon Bedrock model from models.yml,
// AWS keys from the environment and the mock's event-stream double:
// the request is SigV4-signed for the region, the answer streams, and
// the KEY column names the AWS variable.
func TestBedrockAgainstMock(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{
		mockllm.Thinking("Thinking it over.", "sig"),
		mockllm.Text("Hello from Bedrock's double."),
	}})
	const id = "anthropic.claude-sonnet-4-5-20250929-v1:0"
	isolateAgentEnv(t, "providers:\n  amazon-bedrock:\n    baseUrl: "+srv.URL()+"\n    models:\n"+
		"      - {id: \""+id+"\", reasoning: true, input: [text, image], contextWindow: 200000, maxTokens: 64000}\n")
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "",
		"AWS_REGION": "eu-west-1", "AWS_DEFAULT_REGION": "", "AWS_PROFILE": "", "AWS_BEARER_TOKEN_BEDROCK": "",
		"AWS_CONFIG_FILE": t.TempDir() + "/none", "AWS_SHARED_CREDENTIALS_FILE": t.TempDir() + "/none",
	} {
		t.Setenv(k, v)
	}
	out, errOut, code := runCmd(t, "models", "amazon-bedrock/")
	if code != 0 || !strings.Contains(out, "amazon-bedrock/"+id) || !strings.Contains(out, "env AWS_ACCESS_KEY_ID") {
		t.Fatalf("models: exit %d %s\n%s", code, errOut, out)
	}
	out, errOut, code = runCmd(t, "ai", "-m", "amazon-bedrock/"+id+":high", "--show-thinking", "-v", "say", "hello")
	if code != 0 || out != "Hello from Bedrock's double.\n" || !strings.Contains(errOut, "Thinking it over.") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Format != mockllm.FormatBedrock || !strings.Contains(string(reqs[0].Body), "say hello") {
		t.Fatalf("requests %+v", reqs)
	}
	if auth := reqs[0].Header.Get("Authorization"); !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") || !strings.Contains(auth, "/eu-west-1/bedrock/aws4_request") {
		t.Errorf("Authorization %q", auth)
	}
}
