package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// LayerKind orders the layers of Settings, lowest first; schema defaults
// sit below all of them.
type LayerKind uint8

// Layer kinds.
const (
	LayerGlobal   LayerKind = iota + 1 // user files: omp's ~/.omp/agent/config.yml, then gopi's config.yml (the one Set writes)
	LayerProject                       // project files: .omp/ then .gopi/ (settings.json, config.yml)
	LayerEnv                           // values environment variables force (PI_EDIT_VARIANT, PI_SMOL_MODEL, …)
	LayerOverride                      // runtime overrides, never saved (CLI flags)
)

// String names the layer kind.
func (k LayerKind) String() string {
	switch k {
	case LayerGlobal:
		return "global"
	case LayerProject:
		return "project"
	case LayerEnv:
		return "env"
	case LayerOverride:
		return "override"
	}
	return "unknown"
}

// Layer is one source of settings values.
type Layer struct {
	Kind   LayerKind
	Source SourceID       // SourceGopi or SourceOMP for files; "" otherwise
	Path   string         // file the values came from; "" for env and overrides
	Data   map[string]any // nested values after key migrations
}

// Settings is the layered settings view: schema defaults ← global files ←
// project files ← environment ← runtime overrides, merged key by key (maps
// merge, anything else is replaced). Reads take the merged value or the
// schema default; Set writes gopi's global file only. Safe for concurrent
// use.
type Settings struct {
	globalPath string            // gopi's global file; "" keeps Set in memory
	isLight    func(string) bool // set by Load, before the settings are shared

	mu     sync.RWMutex
	layers []Layer        // lowest first
	merged map[string]any // deep merge of layers
	masked []string       // dotted keys the project layers may not set (an untrusted project's, see trust.go)
}

// NewSettings returns settings made of the given layers (sorted by kind,
// stable) over the schema defaults. globalPath is the file Set writes; ""
// keeps changes in memory. Layer data is copied and validated: a known key
// with a bad value is an error naming the layer's file and the key.
func NewSettings(globalPath string, layers ...Layer) (*Settings, error) {
	s := &Settings{globalPath: globalPath}
	var errs []error
	for _, l := range layers {
		data, _ := deepCopy(expandDotted(l.Data)).(map[string]any)
		if data == nil {
			data = map[string]any{}
		}
		for _, e := range validate(data) {
			errs = append(errs, layerError(l, e))
		}
		l.Data = data
		s.layers = append(s.layers, l)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortStableFunc(s.layers, func(a, b Layer) int { return int(a.Kind) - int(b.Kind) })
	s.rebuild()
	return s, nil
}

// layerError prefixes an error with where the layer came from.
func layerError(l Layer, err error) error {
	if l.Path != "" {
		return &FileError{Path: l.Path, Err: err}
	}
	return fmt.Errorf("%s settings: %w", l.Kind, err)
}

// FileError is a problem with one configuration file.
type FileError struct {
	Path string // the file
	Err  error  // what is wrong, with the key or line when known
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// rebuild recomputes the merged view; the caller holds the write lock.
func (s *Settings) rebuild() {
	m := map[string]any{}
	for _, l := range s.layers {
		data := l.Data
		if l.Kind == LayerProject && len(s.masked) > 0 {
			data = deepCopy(data).(map[string]any)
			for _, k := range s.masked {
				setPath(data, splitKey(k), nil)
			}
		}
		m = deepMerge(m, data)
	}
	s.merged = m
}

// Get returns a setting by dotted key: the merged value of the layers, or
// the schema default when no layer sets it (nil values count as unset).
// ok is false for a key that is neither set nor known. Maps and lists are
// copies.
func (s *Settings) Get(key string) (any, bool) {
	s.mu.RLock()
	v, set := getPath(s.merged, splitKey(key))
	s.mu.RUnlock()
	if set && v != nil {
		return deepCopy(v), true
	}
	if d, known := index().defs[key]; known {
		return deepCopy(d.Default), true
	}
	return nil, false
}

// IsSet reports whether some layer sets key to a non-nil value.
func (s *Settings) IsSet(key string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, set := getPath(s.merged, splitKey(key))
	return set && v != nil
}

// String returns a string setting, or its default when unset or not a
// string ("" for an unknown key).
func (s *Settings) String(key string) string {
	if v, ok := s.value(key).(string); ok {
		return v
	}
	v, _ := defaultOf(key).(string)
	return v
}

// Bool returns a boolean setting, or its default when unset or not a
// boolean (false for an unknown key).
func (s *Settings) Bool(key string) bool {
	if v, ok := s.value(key).(bool); ok {
		return v
	}
	v, _ := defaultOf(key).(bool)
	return v
}

// Float returns a number setting, or its default when unset or not a
// number (0 for an unknown key).
func (s *Settings) Float(key string) float64 {
	if v, ok := toFloat(s.value(key)); ok {
		return v
	}
	v, _ := toFloat(defaultOf(key))
	return v
}

// Int returns a number setting rounded toward zero, or its default when
// unset or not a number (0 for an unknown key).
func (s *Settings) Int(key string) int { return int(s.Float(key)) }

// Strings returns a list setting's string elements (others are skipped),
// or its default when unset or not a list.
func (s *Settings) Strings(key string) []string {
	l, ok := s.value(key).([]any)
	if !ok {
		l, _ = defaultOf(key).([]any)
	}
	var out []string
	for _, e := range l {
		if str, ok := e.(string); ok {
			out = append(out, str)
		}
	}
	return out
}

// StringMap returns a map setting's string values (others are skipped),
// merged over its default; never nil.
func (s *Settings) StringMap(key string) map[string]string {
	out := map[string]string{}
	def, _ := defaultOf(key).(map[string]any)
	cur, _ := s.value(key).(map[string]any)
	for _, m := range []map[string]any{def, cur} {
		for k, v := range m {
			if str, ok := v.(string); ok {
				out[k] = str
			}
		}
	}
	return out
}

// value is a copy of the merged value of key (nil when unset).
func (s *Settings) value(key string) any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, _ := getPath(s.merged, splitKey(key))
	return deepCopy(v)
}

// defaultOf is the schema default of a key (nil when unknown).
func defaultOf(key string) any {
	if d, ok := index().defs[key]; ok {
		return d.Default
	}
	return nil
}

// Merged returns a copy of the merged layers (defaults not included).
func (s *Settings) Merged() map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return deepCopy(s.merged).(map[string]any)
}

// Layers returns copies of the layers, lowest first.
func (s *Settings) Layers() []Layer {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Layer, len(s.layers))
	for i, l := range s.layers {
		l.Data = deepCopy(l.Data).(map[string]any)
		out[i] = l
	}
	return out
}

// GlobalPath is the file Set writes ("" when settings live in memory).
func (s *Settings) GlobalPath() string { return s.globalPath }

// checkKey validates a dotted key and, for a known key, the value.
func checkKey(key string, v any) error {
	if key == "" || slices.Contains(splitKey(key), "") {
		return fmt.Errorf("invalid setting key %q: expected dotted names such as compaction.enabled", key)
	}
	if d, ok := index().defs[key]; ok {
		return d.Check(v)
	}
	if strings.ContainsAny(key, " \t\n") {
		return fmt.Errorf("invalid setting key %q: white space in a key", key)
	}
	return nil
}

// Override sets a runtime override (highest layer, never saved). A nil
// value removes the override.
func (s *Settings) Override(key string, v any) error {
	v = normalize(v)
	if err := checkKey(key, v); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.layer(LayerOverride, "")
	setPath(l.Data, splitKey(key), deepCopy(v))
	s.rebuild()
	return nil
}

// layer returns the last layer of a kind and source, inserting an empty
// one in order when there is none; the caller holds the write lock.
func (s *Settings) layer(kind LayerKind, src SourceID) *Layer {
	for i := len(s.layers) - 1; i >= 0; i-- {
		if l := &s.layers[i]; l.Kind == kind && l.Source == src {
			return l
		}
	}
	at := len(s.layers)
	for i, l := range s.layers {
		if l.Kind > kind {
			at = i
			break
		}
	}
	s.layers = slices.Insert(s.layers, at, Layer{Kind: kind, Source: src, Data: map[string]any{}})
	return &s.layers[at]
}
