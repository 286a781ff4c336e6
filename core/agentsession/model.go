package agentsession

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
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
		model = s.reg.FirstWithAuth()
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

// check returns an error that says how to fix a missing model or key.
func (ms *ModelState) check() error {
	m := ms.agent.Model()
	if m == nil {
		return fmt.Errorf("no model is available: %s", ms.credentialHint())
	}
	if !ms.reg.HasAuth(m) {
		p, _ := ms.reg.Provider(m.Provider)
		how := "run `gopi login " + m.Provider + "` or pass --api-key"
		if p != nil && len(p.KeyEnv) > 0 {
			how = "set " + strings.Join(p.KeyEnv, " or ") + ", " + how
		}
		if v := ms.unsetKeyVar(p); v != "" {
			how = "set " + v + " (models.yml names it as the provider's apiKey), " + how
		}
		msg := fmt.Sprintf("no API key for %s (model %s): %s", m.Provider, m.ID, how)
		if others := ms.modelsWithKeys(); len(others) > 0 {
			msg += "; models with keys: " + strings.Join(others, ", ")
		}
		return fmt.Errorf("%s: %w", msg, ErrNoCredentials)
	}
	return nil
}

// credentialHint names the usual key variables and the models that have
// keys.
func (ms *ModelState) credentialHint() string {
	if others := ms.modelsWithKeys(); len(others) > 0 {
		return "pick one with --model (models with keys: " + strings.Join(others, ", ") + ")"
	}
	var envs []string
	for _, name := range []string{"anthropic", "openai", "google"} {
		if p, ok := ms.reg.Provider(name); ok && len(p.KeyEnv) > 0 {
			envs = append(envs, strings.Join(p.KeyEnv, " or "))
		}
	}
	// Providers from models.yml whose key variable is not set come first:
	// the user configured them, the variable is what is missing.
	var custom []string
	for _, p := range ms.reg.Providers() {
		if v := ms.unsetKeyVar(p); v != "" {
			custom = append(custom, v+" for provider "+p.Name)
		}
	}
	if len(custom) > 0 {
		return "set " + strings.Join(custom, ", ") + " (models.yml names them as apiKey), or set an API key (" + strings.Join(envs, "; ") + ")"
	}
	return "run `gopi login` or set an API key (" + strings.Join(envs, "; ") + ")" + ", or add a provider to models.yml in " + ms.agentDir + " ('gopi models' lists what is known)"
}

// unsetKeyVar returns the environment variable a models.yml provider takes
// its key from when it yields no key ("" otherwise): a literal apiKey is
// always a key, so an apiKey that yields none names an unset variable.
func (ms *ModelState) unsetKeyVar(p *models.ProviderInfo) string {
	if p == nil || p.APIKey == "" || p.KeyOptional {
		return ""
	}
	if ms.reg.KeySource(p.Name) != "" {
		return ""
	}
	return p.APIKey
}

// modelsWithKeys lists up to 8 "provider/id" of models that have keys.
func (ms *ModelState) modelsWithKeys() []string {
	var out []string
	seen := map[string]bool{}
	hasAuth := ms.reg.AuthCheck()
	for _, m := range ms.reg.Models() {
		if len(out) >= 8 {
			break
		}
		if seen[m.Provider] || !hasAuth(m) {
			continue
		}
		seen[m.Provider] = true
		out = append(out, m.Provider+"/"+m.ID)
	}
	sort.Strings(out)
	return out
}

// ModelState is the part of a session that owns the model and the
// reasoning effort: switching and cycling them, checking credentials, and
// recording changes in the session file so a resumed session continues
// with them. The model and level themselves live in the agent loop; this
// part keeps what was last recorded on the store's path, under its own
// lock.
type ModelState struct {
	reg      *models.Registry        // the model registry with its credentials
	agent    *agent.Agent            // holds the current model and thinking level
	store    func() *session.Manager // the current session store
	agentDir string                  // the agent directory (named in errors)
	cycle    []*ai.Model             // Options.CycleModels
	fallback string                  // why the session's own model could not be restored
	settings *config.Settings        // where a chosen model is saved as modelRoles.default (nil: not saved)

	mu       sync.Mutex
	recorded struct{ model, thinking string } // model and thinking level last written on the store's path
	tier     string                           // the OpenAI service tier sent (see ServiceTier)
	role     string                           // the role CycleRole last switched to ("" after any other switch)
}

// Registry returns the model registry.
func (ms *ModelState) Registry() *models.Registry { return ms.reg }

// FallbackMessage says why the session's own model could not be restored
// ("" when it was, or when there was none).
func (ms *ModelState) FallbackMessage() string { return ms.fallback }

// Set switches the model from the next request on, records the change
// in the session and saves the model as the default for new sessions
// (modelRoles.default in config.yml, as omp does; a thinking level the
// saved value names after a colon is kept).
func (ms *ModelState) Set(m *ai.Model) error {
	if m == nil {
		return errors.New("no model given")
	}
	ref, err := ms.switchTo(m)
	if serr := ms.saveDefault(ref, ""); serr != nil && err == nil {
		err = serr
	}
	return err
}

// switchTo makes m the session's model (its thinking level clamped to
// what m supports) and records the change as the default role's; it
// returns m's provider/id.
func (ms *ModelState) switchTo(m *ai.Model) (string, error) {
	ms.agent.SetModel(m)
	ms.agent.SetThinking(models.ClampThinking(m, ms.agent.Thinking()))
	ms.mu.Lock()
	ms.role = ""
	ms.mu.Unlock()
	ref := m.Provider + "/" + m.ID
	_, err := ms.store().Record(session.ModelChange{Model: ref, Role: "default"})
	if err == nil {
		ms.setRecorded(&ref, nil)
	}
	return ref, err
}

// SetDefault is Set as omp's model picker does it for the default role:
// the model is saved as modelRoles.default with the chosen thinking level
// after a colon, and the session thinks at that level from now on. An
// empty level is omp's "inherit": the value is saved without a level and
// the session keeps its own (clamped to the model).
func (ms *ModelState) SetDefault(m *ai.Model, level ai.ThinkingLevel) error {
	if m == nil {
		return errors.New("no model given")
	}
	if level != "" {
		if _, ok := ai.ParseThinkingLevel(string(level)); !ok {
			return fmt.Errorf("unknown thinking level %q: use off, minimal, low, medium, high or xhigh", level)
		}
	}
	ref, err := ms.switchTo(m)
	if ms.settings != nil {
		value := ref
		if level != "" {
			value += ":" + string(level)
		}
		if serr := ms.settings.Set("modelRoles.default", value); serr != nil && err == nil {
			err = fmt.Errorf("the model is switched for this session, but saving it as the default failed: %w", serr)
		}
	}
	if level != "" {
		if terr := ms.SetThinking(level); terr != nil && err == nil {
			err = terr
		}
	}
	return err
}

// SetThinkingDefault is SetThinking that also saves the level for new
// sessions: defaultThinkingLevel (omp's setting), and the level after the
// colon of modelRoles.default when that value names one (it would win).
// "off" is not saved as a default, as omp has it.
func (ms *ModelState) SetThinkingDefault(l ai.ThinkingLevel) error {
	if err := ms.SetThinking(l); err != nil {
		return err
	}
	if ms.settings == nil || l == ai.ThinkingOff {
		return nil
	}
	if err := ms.settings.Set("defaultThinkingLevel", string(l)); err != nil {
		return fmt.Errorf("the thinking level is set for this session, but saving it failed: %w", err)
	}
	if q, _, has := models.ParseModelArg(ms.settings.ModelRole("default")); has {
		return ms.saveDefault(q, l)
	}
	return nil
}

// saveDefault saves ref as modelRoles.default: with level after a colon
// when one is given, else with the level the saved value named before.
func (ms *ModelState) saveDefault(ref string, level ai.ThinkingLevel) error {
	if ms.settings == nil {
		return nil
	}
	if level == "" {
		if _, l, has := models.ParseModelArg(ms.settings.ModelRole("default")); has {
			level = l
		}
	}
	value := ref
	if level != "" {
		value += ":" + string(level)
	}
	if ms.settings.ModelRole("default") == value {
		return nil
	}
	if err := ms.settings.Set("modelRoles.default", value); err != nil {
		return fmt.Errorf("the model is switched for this session, but saving it as the default failed: %w", err)
	}
	return nil
}

// setTemporary switches the model for a while (plan mode's plan model,
// and back), recorded in the session as a "temporary" model change so
// that a resumed session keeps its default model.
func (ms *ModelState) setTemporary(m *ai.Model) {
	ms.mu.Lock()
	ms.role = ""
	ms.mu.Unlock()
	ms.agent.SetModel(m)
	ms.agent.SetThinking(models.ClampThinking(m, ms.agent.Thinking()))
	ref := m.Provider + "/" + m.ID
	if _, err := ms.store().Record(session.ModelChange{Model: ref, Role: "temporary"}); err == nil {
		ms.setRecorded(&ref, nil) // not a change of the default model
	}
}

// SetThinking changes the reasoning effort (clamped to what the model
// supports) and records it in the session.
func (ms *ModelState) SetThinking(l ai.ThinkingLevel) error {
	if _, ok := ai.ParseThinkingLevel(string(l)); !ok {
		return fmt.Errorf("unknown thinking level %q: use off, minimal, low, medium, high or xhigh", l)
	}
	if m := ms.agent.Model(); m != nil {
		l = models.ClampThinking(m, l)
	}
	ms.agent.SetThinking(l)
	_, err := ms.store().Record(session.ThinkingLevel(string(l)))
	if err == nil {
		level := string(l)
		ms.setRecorded(nil, &level)
	}
	return err
}

// setRecorded notes what the store's path now records (nil leaves a
// value as it is).
func (ms *ModelState) setRecorded(model, thinking *string) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if model != nil {
		ms.recorded.model = *model
	}
	if thinking != nil {
		ms.recorded.thinking = *thinking
	}
}

// record writes the model and thinking level into store when they differ
// from what was last recorded on its path, so a resumed session continues
// with them (omp starts every session with these two entries).
func (ms *ModelState) record(store *session.Manager) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if m := ms.agent.Model(); m != nil {
		if ref := m.Provider + "/" + m.ID; ms.recorded.model != ref {
			if _, err := store.Record(session.ModelChange{Model: ref, Role: ""}); err == nil {
				ms.recorded.model = ref
			}
		}
	}
	level := string(ms.agent.Thinking())
	if level == "" {
		level = string(ai.ThinkingOff)
	}
	if ms.recorded.thinking != level {
		if _, err := store.Record(session.ThinkingLevel(level)); err == nil {
			ms.recorded.thinking = level
		}
	}
}

// Available lists the models that have credentials.
func (ms *ModelState) Available() []*ai.Model {
	var out []*ai.Model
	hasAuth := ms.reg.AuthCheck()
	for _, m := range ms.reg.Models() {
		if hasAuth(m) {
			out = append(out, m)
		}
	}
	return out
}

// Find returns the model provider/id among all known models.
func (ms *ModelState) Find(provider, id string) (*ai.Model, error) {
	for _, m := range ms.reg.Models() {
		if m.Provider == provider && m.ID == id {
			return m, nil
		}
	}
	return nil, fmt.Errorf("Model not found: %s/%s", provider, id)
}

// Cycle switches to the next model of Options.CycleModels, else of the
// models with credentials (in catalog order), and returns it; nil when
// there is no other.
func (ms *ModelState) Cycle() (*ai.Model, error) {
	avail := ms.cycle
	if len(avail) == 0 {
		avail = ms.Available()
	}
	cur := ms.agent.Model()
	if len(avail) == 0 || (len(avail) == 1 && cur != nil && avail[0] == cur) {
		return nil, nil
	}
	next := avail[0]
	for i, m := range avail {
		if cur != nil && m.Provider == cur.Provider && m.ID == cur.ID {
			next = avail[(i+1)%len(avail)]
			break
		}
	}
	return next, ms.Set(next)
}

// CycleThinking moves to the next thinking level the model supports and
// returns it; "" when the model does not reason.
func (ms *ModelState) CycleThinking() (ai.ThinkingLevel, error) {
	m := ms.agent.Model()
	if m == nil {
		return "", errors.New("no model is selected")
	}
	if !m.Reasoning {
		return "", nil
	}
	cur := ms.agent.Thinking()
	levels := ai.ThinkingLevels
	next := levels[0]
	for i, l := range levels {
		if l == cur {
			next = levels[(i+1)%len(levels)]
			break
		}
	}
	if clamped := models.ClampThinking(m, next); clamped != next {
		next = ai.ThinkingOff
	}
	return next, ms.SetThinking(next)
}

// RoleCycle is what CycleRole switched to: the model, the role it is
// assigned to and the order of the roles that were cycled.
type RoleCycle struct {
	Model *ai.Model // the model now in use
	Role  string    // its role (modelRoles key)
	Order []string  // the roles of cycleOrder that have a usable model, in order
}

// CycleRole switches to the model of the next role of the cycleOrder
// setting that has a model with credentials (the default role falls back
// to the current model), as omp's Ctrl+P does. The switch is recorded in
// the session under the role; config.yml is not written, since every
// model cycled through is already assigned there. A thinking level the
// role names after a colon is applied. It returns nil when fewer than two
// roles have a usable model.
func (ms *ModelState) CycleRole() (*RoleCycle, error) {
	cur := ms.agent.Model()
	if cur == nil || ms.settings == nil {
		return nil, nil
	}
	type roleModel struct {
		role     string
		model    *ai.Model
		thinking ai.ThinkingLevel
		explicit bool
	}
	hasAuth := ms.reg.AuthCheck()
	var roles []roleModel
	for _, role := range ms.settings.Strings("cycleOrder") {
		ref := ms.settings.ModelRole(role)
		if role == "default" && ref == "" {
			ref = cur.Provider + "/" + cur.ID
		}
		if ref == "" {
			continue
		}
		q, level, explicit := models.ParseModelArg(ref)
		m, err := ms.reg.Find(q)
		if err != nil || !hasAuth(m) {
			continue
		}
		roles = append(roles, roleModel{role: role, model: m, thinking: level, explicit: explicit})
	}
	if len(roles) <= 1 {
		return nil, nil
	}
	ms.mu.Lock()
	last := ms.role
	ms.mu.Unlock()
	at := -1
	for i, r := range roles {
		if last != "" && r.role == last {
			at = i
			break
		}
	}
	if at < 0 {
		for i, r := range roles {
			if r.model.Provider == cur.Provider && r.model.ID == cur.ID {
				at = i
				break
			}
		}
	}
	next := roles[(max(at, 0)+1)%len(roles)]
	ms.agent.SetModel(next.model)
	ms.agent.SetThinking(models.ClampThinking(next.model, ms.agent.Thinking()))
	ref := next.model.Provider + "/" + next.model.ID
	_, err := ms.store().Record(session.ModelChange{Model: ref, Role: next.role})
	if err == nil {
		ms.setRecorded(&ref, nil)
	}
	ms.mu.Lock()
	ms.role = next.role
	ms.mu.Unlock()
	if next.explicit {
		if terr := ms.SetThinking(next.thinking); terr != nil && err == nil {
			err = terr
		}
	}
	order := make([]string, len(roles))
	for i, r := range roles {
		order[i] = r.role
	}
	return &RoleCycle{Model: next.model, Role: next.role, Order: order}, err
}
