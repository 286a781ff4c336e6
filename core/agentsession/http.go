package agentsession

import (
	"net/http"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
)

// defaultHTTPClient bounds everything but the streamed body: dialing and
// the TLS handshake (the configured connect timeout) and idle connections.
// A whole-request timeout would cut long answers; streams are guarded by
// core/ai's first-event and idle watchdogs instead.
func defaultHTTPClient(cfg *config.Config) *http.Client {
	return ai.NewHTTPClient(cfg.ProviderTimeouts().Connect)
}
