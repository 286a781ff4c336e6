package config

import "slices"

// Settings views the trust decision needs (trust.go): values of some
// layers only, and project values held back.

// mask holds back the project layers' values of keys (nil: none).
func (s *Settings) mask(keys []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.Equal(s.masked, keys) {
		return
	}
	s.masked = slices.Clone(keys)
	s.rebuild()
}

// valueOf merges the layers include accepts (none held back) and returns
// key's value there, or its schema default when they do not set it.
func (s *Settings) valueOf(key string, include func(Layer) bool) any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var v any
	set := false
	for _, l := range s.layers {
		if !include(l) {
			continue
		}
		if x, ok := getPath(l.Data, splitKey(key)); ok && x != nil {
			if xm, isMap := x.(map[string]any); isMap {
				if vm, wasMap := v.(map[string]any); wasMap {
					v = deepMerge(vm, xm)
					continue
				}
			}
			v, set = deepCopy(x), true
		}
	}
	if !set {
		return deepCopy(defaultOf(key))
	}
	return v
}

// projectSource returns the file of the last project layer that sets key.
func (s *Settings) projectSource(key string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for i := len(s.layers) - 1; i >= 0; i-- {
		l := s.layers[i]
		if l.Kind != LayerProject {
			continue
		}
		if v, ok := getPath(l.Data, splitKey(key)); ok && v != nil {
			return l.Path, true
		}
	}
	return "", false
}

// userStrings returns a list setting's strings from the user's own files
// (the global layers) alone.
func (s *Settings) userStrings(key string) []string {
	return stringList(s.valueOf(key, func(l Layer) bool { return l.Kind == LayerGlobal }))
}
