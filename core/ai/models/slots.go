package models

import "github.com/gopi-agent/gopi/core/ai"

// slot is one model of a registry: a model the registry owns (m), or a
// catalogue entry (cat) whose model is built when first asked for. Lookups
// read a slot's id, name, provider and API without building it.
type slot struct {
	m   *ai.Model
	cat int32
}

func (s *slot) entry() *catalogEntry { return &catalogEntries[s.cat] }

func (s *slot) id() string {
	if s.m != nil {
		return s.m.ID
	}
	return s.entry().id.String()
}

func (s *slot) name() string {
	if s.m != nil {
		return s.m.Name
	}
	return s.entry().name.String()
}

func (s *slot) provider() string {
	if s.m != nil {
		return s.m.Provider
	}
	return catalogProviders[s.entry().provider].name
}

func (s *slot) api() ai.API {
	if s.m != nil {
		return s.m.API
	}
	return ai.API(s.entry().api.String())
}

func (s *slot) baseURL() string {
	if s.m != nil {
		return s.m.BaseURL
	}
	return s.entry().baseURL.String()
}

// model returns the slot's model, building it on first use. The caller
// holds the registry's lock (or owns a registry not yet shared).
func (s *slot) model() *ai.Model {
	if s.m == nil {
		s.m = catalogModel(int(s.cat))
	}
	return s.m
}

// Models lists every model: the catalogue in provider order, then
// models.yml additions, then the local servers' models found so far. The
// first call builds every catalogue model; a lookup (Find, Search) builds
// only what it returns.
func (r *Registry) Models() []*ai.Model {
	r.probesStarted()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mergeProbesLocked()
	if len(r.all) != len(r.slots) {
		r.all = make([]*ai.Model, len(r.slots))
		for i := range r.slots {
			r.all[i] = r.slots[i].model()
		}
	}
	return r.all
}

// FirstWithAuth is the first model of Models whose provider has
// credentials (HasAuth), or nil. It asks once per provider and builds only
// the model it returns: start-up without a model named runs it, and the
// catalogue has thousands of models.
func (r *Registry) FirstWithAuth() *ai.Model {
	r.probesStarted()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mergeProbesLocked()
	rank := r.ranker()
	for i := range r.slots {
		if s := &r.slots[i]; rank.hasAuth(s.provider()) {
			return s.model()
		}
	}
	return nil
}
