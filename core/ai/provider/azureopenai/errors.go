package azureopenai

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/gopi-agent/gopi/core/ai"
)

// DeploymentError is Azure's 404 DeploymentNotFound: the resource has no
// deployment of the name the request's model maps to.
type DeploymentError struct {
	Deployment string // the deployment requested
	Model      string // the model id it was derived from
	BaseURL    string // the resource's API root
}

// Error names the deployment and says how to fix it, in one line.
func (e *DeploymentError) Error() string {
	return fmt.Sprintf("Azure OpenAI resource %s has no deployment %q (for model %q): create it, or map the model to a deployment that exists with AZURE_OPENAI_DEPLOYMENT_NAME_MAP=%s=<deployment> (or compat %s in models.yml)",
		e.BaseURL, e.Deployment, e.Model, e.Model, CompatDeployment)
}

// explainError turns Azure's HTTP errors into what a user can act on;
// other errors pass through.
func explainError(err error, m *ai.Model, deployment, base string) error {
	var he *ai.HTTPError
	if !errors.As(err, &he) {
		return err
	}
	var body struct {
		Error struct {
			Code any `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(he.Body, &body)
	code, _ := body.Error.Code.(string)
	switch {
	case code == "DeploymentNotFound":
		return &DeploymentError{Deployment: deployment, Model: m.ID, BaseURL: base}
	case he.Status == http.StatusUnauthorized:
		out := *he
		out.Message += "; check AZURE_OPENAI_API_KEY (a key of this resource, or a current Entra ID token) and that the base URL is this resource's"
		return &out
	}
	return err
}
