package mockllm

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// Requests to Azure OpenAI's paths (under /openai/: the v1 surface
// /openai/v1/responses, or the deployment layout
// /openai/deployments/<name>/chat/completions) are checked as Azure does:
// an api-version query parameter, a key in the api-key header or an Entra
// ID token as Authorization: Bearer, and a deployment that exists when
// AzureDeployments named some (the path's deployment, else the body's
// "model"). The refusals use Azure's
// error shape, {"error": {"code": …, "message": …}}; the unknown-deployment
// and access-denied texts are Azure's own, the missing api-version text is
// the mock's.

// AzureDeployments declares the deployments requests to Azure paths may
// name; a request for another is refused with Azure's 404
// DeploymentNotFound. Without a call every deployment exists.
func (s *Server) AzureDeployments(names ...string) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.azureDeployments = append([]string(nil), names...)
	return s
}

// Azure's own texts for the refusals it shares with the mock.
const (
	azureDeploymentNotFound = "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again."
	azureAccessDenied       = "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource."
)

// checkAzure applies Azure OpenAI's request rules.
func checkAzure(r *http.Request, body []byte, deployments []string) *rejection {
	refuse := func(status int, code, msg string) *rejection {
		return &rejection{status: status, body: map[string]any{"error": map[string]any{"code": code, "message": msg}}}
	}
	if r.URL.Query().Get("api-version") == "" {
		return refuse(http.StatusBadRequest, "MissingApiVersionParameter", "mockllm: azure: the api-version query parameter is required")
	}
	bearer, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if r.Header.Get("api-key") == "" && strings.TrimSpace(bearer) == "" {
		return refuse(http.StatusUnauthorized, "401", azureAccessDenied)
	}
	if len(deployments) == 0 {
		return nil
	}
	deployment, inPath := pathDeployment(r.URL.Path)
	if !inPath {
		var req struct {
			Model string `json:"model"`
		}
		if json.Unmarshal(body, &req) != nil {
			return nil // the server reports an unreadable body
		}
		deployment = req.Model
	}
	if !slices.Contains(deployments, deployment) {
		return refuse(http.StatusNotFound, "DeploymentNotFound", azureDeploymentNotFound)
	}
	return nil
}

// pathDeployment returns the <name> of a /openai/deployments/<name>/… path.
func pathDeployment(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, "/openai/deployments/")
	if !ok {
		return "", false
	}
	name, _, _ := strings.Cut(rest, "/")
	return name, true
}
