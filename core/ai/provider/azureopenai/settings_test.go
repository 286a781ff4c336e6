package azureopenai

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

func TestParseDeploymentMap(t *testing.T) {
	got := ParseDeploymentMap(" gpt-5 = team-gpt5 ,o3=o3-east,,=x,y=, gpt-5=later ,noequals")
	want := map[string]string{"gpt-5": "later", "o3": "o3-east"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if len(ParseDeploymentMap("")) != 0 {
		t.Error("an empty map string gave entries")
	}
}

// FuzzParseDeploymentMap: any text parses without panicking into entries
// whose names are trimmed and non-empty.
func FuzzParseDeploymentMap(f *testing.F) {
	f.Add("gpt-5=team-gpt5,o3=o3-east")
	f.Add(" a = b ,,=c,d=")
	f.Add("x=y=z")
	f.Fuzz(func(t *testing.T, s string) {
		for k, v := range ParseDeploymentMap(s) {
			if k == "" || v == "" || k != strings.TrimSpace(k) || v != strings.TrimSpace(v) || strings.Contains(k, ",") || strings.Contains(v, ",") {
				t.Fatalf("entry %q=%q from %q", k, v, s)
			}
		}
	})
}

func TestIsEntraToken(t *testing.T) {
	for cred, want := range map[string]bool{
		entraToken:                       true,
		testKey:                          false,
		"eyJ.only-two":                   false,
		"abc.def.ghi":                    false,
		"eyJhbGciOiJSUzI1NiJ9..":         false,
		"9xYzAbCdEfGhIjKlMnOpQrStUvWxYz": false,
	} {
		if IsEntraToken(cred) != want {
			t.Errorf("IsEntraToken(%q) = %v", cred, !want)
		}
	}
}

func TestDeploymentAndVersion(t *testing.T) {
	m := &ai.Model{ID: "gpt-5"}
	if Deployment(m) != "gpt-5" || APIVersion(m) != DefaultAPIVersion {
		t.Errorf("defaults: %s %s", Deployment(m), APIVersion(m))
	}
	m.Compat = map[string]any{CompatDeployment: " team ", CompatAPIVersion: "2025-04-01-preview"}
	if Deployment(m) != "team" || APIVersion(m) != "2025-04-01-preview" {
		t.Errorf("compat: %s %s", Deployment(m), APIVersion(m))
	}
	if ResourceBaseURL("contoso") != "https://contoso.openai.azure.com/openai/v1" {
		t.Error(ResourceBaseURL("contoso"))
	}
}
