package agentsession

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/session"
)

// selectModel picks the model and thinking level: Options first, then the
// session's own model (if it still has credentials), the settings' default
// role, the first model with credentials. The fallback text says why the
// session's model was not restored. A session without any usable model
// gets a nil model; Prompt reports that with the ways to fix it.
func (s *Session) selectModel(sctx session.Context) (model *ai.Model, thinking ai.ThinkingLevel, fallback string, err error) {
	model = s.opts.Model
	if model == nil {
		if ref := sctx.Models["default"]; ref != "" {
			m, ferr := s.reg.Find(ref)
			switch {
			case ferr != nil:
				fallback = fmt.Sprintf("The session's model %s is not known here (%v); using another one.", ref, ferr)
			case !s.reg.HasAuth(m) && s.opts.APIKey == "":
				fallback = fmt.Sprintf("The session's model %s has no credentials here; using another one.", ref)
			default:
				model = m
			}
		}
	}
	if model == nil {
		if ref := s.cfg.Settings.ModelRole("default"); ref != "" {
			q, level, hasLevel := models.ParseModelArg(ref)
			m, ferr := s.reg.Find(q)
			if ferr != nil {
				return nil, "", "", fmt.Errorf("setting modelRoles.default = %q: %w", ref, ferr)
			}
			model = m
			if hasLevel && thinking == "" {
				thinking = level
			}
		}
	}
	if model == nil {
		for _, m := range s.reg.Models() {
			if s.reg.HasAuth(m) {
				model = m
				break
			}
		}
	}

	switch {
	case s.opts.Thinking != "":
		thinking = s.opts.Thinking
	case thinking != "":
	case sctx.ThinkingLevel != "" && len(sctx.Messages) > 0:
		thinking = ai.ThinkingLevel(sctx.ThinkingLevel)
	default:
		if l, ok := ai.ParseThinkingLevel(s.cfg.Settings.DefaultThinkingLevel()); ok {
			thinking = l
		}
	}
	if model != nil {
		thinking = models.ClampThinking(model, thinking)
	}
	return model, thinking, fallback, nil
}

// ErrNoCredentials is wrapped by the error Prompt returns when the model's
// provider has no key.
var ErrNoCredentials = errors.New("no credentials")

// checkModel returns an error that says how to fix a missing model or key.
func (s *Session) checkModel() error {
	m := s.agent.Model()
	if m == nil {
		return fmt.Errorf("no model is available: %s", s.credentialHint())
	}
	if !s.reg.HasAuth(m) {
		p, _ := s.reg.Provider(m.Provider)
		how := "add a key to auth.json in " + s.cfg.AgentDir + " or pass --api-key"
		if p != nil && len(p.KeyEnv) > 0 {
			how = "set " + strings.Join(p.KeyEnv, " or ") + ", " + how
		}
		if v := s.unsetKeyVar(p); v != "" {
			how = "set " + v + " (models.yml names it as the provider's apiKey), " + how
		}
		msg := fmt.Sprintf("no API key for %s (model %s): %s", m.Provider, m.ID, how)
		if others := s.modelsWithKeys(); len(others) > 0 {
			msg += "; models with keys: " + strings.Join(others, ", ")
		}
		return fmt.Errorf("%s: %w", msg, ErrNoCredentials)
	}
	return nil
}

// credentialHint names the usual key variables and the models that have
// keys.
func (s *Session) credentialHint() string {
	if others := s.modelsWithKeys(); len(others) > 0 {
		return "pick one with --model (models with keys: " + strings.Join(others, ", ") + ")"
	}
	var envs []string
	for _, name := range []string{"anthropic", "openai", "google"} {
		if p, ok := s.reg.Provider(name); ok && len(p.KeyEnv) > 0 {
			envs = append(envs, strings.Join(p.KeyEnv, " or "))
		}
	}
	// Providers from models.yml whose key variable is not set come first:
	// the user configured them, the variable is what is missing.
	var custom []string
	for _, p := range s.reg.Providers() {
		if v := s.unsetKeyVar(p); v != "" {
			custom = append(custom, v+" for provider "+p.Name)
		}
	}
	if len(custom) > 0 {
		return "set " + strings.Join(custom, ", ") + " (models.yml names them as apiKey), or set an API key (" + strings.Join(envs, "; ") + ")"
	}
	return "set an API key (" + strings.Join(envs, "; ") + ")" + ", or add a provider to models.yml in " + s.cfg.AgentDir + " ('gopi models' lists what is known)"
}

// unsetKeyVar returns the environment variable a models.yml provider takes
// its key from when it yields no key ("" otherwise): a literal apiKey is
// always a key, so an apiKey that yields none names an unset variable.
func (s *Session) unsetKeyVar(p *models.ProviderInfo) string {
	if p == nil || p.APIKey == "" || p.KeyOptional {
		return ""
	}
	if key, _ := s.reg.APIKey(p.Name); key != "" {
		return ""
	}
	return p.APIKey
}

// modelsWithKeys lists up to 8 "provider/id" of models that have keys.
func (s *Session) modelsWithKeys() []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range s.reg.Models() {
		if len(out) >= 8 {
			break
		}
		if seen[m.Provider] || !s.reg.HasAuth(m) {
			continue
		}
		seen[m.Provider] = true
		out = append(out, m.Provider+"/"+m.ID)
	}
	sort.Strings(out)
	return out
}

// SetModel switches the model from the next request on and records the
// change in the session.
func (s *Session) SetModel(m *ai.Model) error {
	if m == nil {
		return errors.New("no model given")
	}
	s.agent.SetModel(m)
	s.agent.SetThinking(models.ClampThinking(m, s.agent.Thinking()))
	ref := m.Provider + "/" + m.ID
	_, err := s.Store().AppendModelChange(ref, "default")
	if err == nil {
		s.mu.Lock()
		s.recorded.model = ref
		s.mu.Unlock()
	}
	return err
}

// SetThinkingLevel changes the reasoning effort (clamped to what the model
// supports) and records it in the session.
func (s *Session) SetThinkingLevel(l ai.ThinkingLevel) error {
	if _, ok := ai.ParseThinkingLevel(string(l)); !ok {
		return fmt.Errorf("unknown thinking level %q: use off, minimal, low, medium, high or xhigh", l)
	}
	if m := s.agent.Model(); m != nil {
		l = models.ClampThinking(m, l)
	}
	s.agent.SetThinking(l)
	_, err := s.Store().AppendThinkingLevelChange(string(l))
	if err == nil {
		s.mu.Lock()
		s.recorded.thinking = string(l)
		s.mu.Unlock()
	}
	return err
}
