package agentsession

import (
	"context"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/secrets"
)

// loadSecrets builds the session's obfuscator when secrets.enabled is on
// and something is to be hidden; problems with secrets.yml files or
// patterns are kept for SecretsProblems.
func (s *Session) loadSecrets() {
	entries, errs := s.cfg.Secrets()
	for _, e := range errs {
		s.res.secretProblems = append(s.res.secretProblems, e.Error())
	}
	if len(entries) == 0 {
		return
	}
	o, errs := secrets.New(entries)
	for _, e := range errs {
		s.res.secretProblems = append(s.res.secretProblems, e.Error())
	}
	if !o.Empty() {
		s.secrets = o
	}
}

// hideSecrets wraps a StreamFunc so the JSON body of every provider
// request has its secrets replaced, after the before_provider_request
// hooks ran: the one point every request (turns, titles, compaction,
// handoffs) passes through on its way out.
func (s *Session) hideSecrets(stream agent.StreamFunc) agent.StreamFunc {
	o := s.secrets
	if o == nil {
		return stream
	}
	return func(ctx context.Context, req *ai.Request) *ai.Stream {
		r := *req
		hooks := req.OnRequest
		r.OnRequest = func(ctx context.Context, p *ai.ProviderRequest) error {
			if hooks != nil {
				if err := hooks(ctx, p); err != nil {
					return err
				}
			}
			p.Payload = o.ObfuscateJSON(p.Payload)
			return nil
		}
		return stream(ctx, &r)
	}
}

// restoreArgs puts the secrets back into a tool call's arguments (nil
// when secrets are off).
func (s *Session) restoreArgs() func(map[string]any) map[string]any {
	if s.secrets == nil {
		return nil
	}
	return s.secrets.RestoreArgs
}
