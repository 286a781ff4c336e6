package agentsession

import (
	"context"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
)

// visionHost is the session as the inspect_image tool's host: its model
// registry, roles and active model, and its provider stream.
type visionHost struct{ s *Session }

// Available lists the registry's models whose provider has credentials.
func (h visionHost) Available() []*ai.Model {
	auth := map[string]bool{}
	var out []*ai.Model
	for _, m := range h.s.reg.Models() {
		ok, seen := auth[m.Provider]
		if !seen {
			ok = h.s.reg.HasAuth(m)
			auth[m.Provider] = ok
		}
		if ok {
			out = append(out, m)
		}
	}
	return out
}

// Resolve finds a pattern's model: "pi/<role>" through modelRoles (nil
// when the role is unassigned), anything else as a registry query; nil
// unless the model has credentials.
func (h visionHost) Resolve(pattern string) *ai.Model {
	q, _, _ := models.ParseModelArg(strings.TrimSpace(pattern))
	if role, ok := strings.CutPrefix(q, "pi/"); ok {
		ref := h.s.cfg.Settings.ModelRole(role)
		if ref == "" {
			return nil
		}
		q, _, _ = models.ParseModelArg(ref)
	}
	m, err := h.s.reg.Find(q)
	if err != nil || !h.s.reg.HasAuth(m) {
		return nil
	}
	return m
}

// Active returns the session's current model.
func (h visionHost) Active() *ai.Model { return h.s.agent.Model() }

// HasAuth reports whether m's provider has credentials.
func (h visionHost) HasAuth(m *ai.Model) bool { return h.s.reg.HasAuth(m) }

// Complete sends req through the session's stream, with its per-request
// settings, and waits for the final message.
func (h visionHost) Complete(ctx context.Context, req *ai.Request) *ai.AssistantMessage {
	h.s.prepareRequest(req)
	return h.s.streamFunc()(ctx, req).Result(ctx)
}
