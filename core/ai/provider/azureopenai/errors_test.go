package azureopenai

import (
	"errors"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// FuzzExplainError: any Azure error body gives an error, never a panic;
// DeploymentNotFound, whatever else the body holds, is a *DeploymentError.
func FuzzExplainError(f *testing.F) {
	f.Add(404, []byte(`{"error":{"code":"DeploymentNotFound","message":"The API deployment for this resource does not exist."}}`))
	f.Add(401, []byte(`{"error":{"code":"401","message":"Access denied"}}`))
	f.Add(400, []byte(`{"error":{"code":7}}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		m := &ai.Model{ID: "gpt-5"}
		err := explainError(&ai.HTTPError{Status: status, Message: "m", Body: body}, m, "dep", "http://x/openai/v1")
		if err == nil {
			t.Fatal("nil error")
		}
		var de *DeploymentError
		if errors.As(err, &de) && (de.Deployment != "dep" || de.Model != "gpt-5") {
			t.Fatalf("deployment error %+v", de)
		}
	})
}
