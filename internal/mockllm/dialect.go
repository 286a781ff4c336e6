package mockllm

import (
	"encoding/json"
	"net/http"
	"strings"
)

// rejection is a dialect check's refusal of a request: the status and the
// JSON body the service answers with.
type rejection struct {
	status int
	body   any
}

// write sends the refusal.
func (rj *rejection) write(w http.ResponseWriter) {
	data, _ := json.Marshal(rj.body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rj.status)
	_, _ = w.Write(append(data, '\n'))
}

// checkDialect applies the checks of the service a request's URL names,
// before the request may consume a turn: the ChatGPT backend for
// …/codex/responses (codex.go) and Azure OpenAI for every path under
// /openai/ (azure.go). Other requests pass.
func (s *Server) checkDialect(r *http.Request, body []byte) *rejection {
	if r.Method != http.MethodPost {
		return nil
	}
	switch {
	case strings.HasSuffix(r.URL.Path, "/codex/responses"):
		return checkCodex(r, body)
	case strings.HasPrefix(r.URL.Path, "/openai/"):
		s.mu.Lock()
		deployments := s.azureDeployments
		s.mu.Unlock()
		return checkAzure(r, body, deployments)
	}
	return nil
}
