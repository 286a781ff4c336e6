package session

import (
	"errors"
	"fmt"
	"slices"
)

// A Record is an entry of one of the kinds Manager.Record appends: a
// ModelChange, a ThinkingLevelChange (ThinkingLevel makes one), a
// ServiceTierChange (ServiceTier), a Compaction, an extension's state (a
// Custom, or CustomState to encode it), a CustomMessage, a Label, a
// TTSRInjection, a SessionInit, a mode switch (a ModeChange, or
// ModeSwitch) or an MCPToolSelection. Messages are appended with
// AppendMessage, entries of a type of the caller's own with AppendOther.
type Record interface {
	// entry makes the entry to append; its id, parent and time are set
	// when it is appended.
	entry() (*Entry, error)
}

// Record appends r as a child of the leaf and returns its id. A Label
// must name an entry of the session (ErrNotFound otherwise); "" as its
// label clears the entry's label.
func (m *Manager) Record(r Record) (string, error) {
	if r == nil {
		return "", errors.New("record: no record given")
	}
	e, err := r.entry()
	if err != nil {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if e.Label != nil && m.byID[e.Label.TargetID] == nil {
		return "", fmt.Errorf("label entry %s: %w", e.Label.TargetID, ErrNotFound)
	}
	return m.append(e)
}

// ThinkingLevel records a thinking level; "" is written as null and read
// as "off".
func ThinkingLevel(level string) ThinkingLevelChange {
	return ThinkingLevelChange{ThinkingLevel: strPtr(level)}
}

// ServiceTier records a service tier; "" clears it (null).
func ServiceTier(tier string) ServiceTierChange {
	return ServiceTierChange{ServiceTier: strPtr(tier)}
}

// CustomState records an extension's state (never part of the context):
// data is encoded as JSON when appended; nil leaves it out.
func CustomState(customType string, data any) Record {
	return encodedRecord{kind: "custom entry", data: data, make: func(raw []byte) *Entry {
		return &Entry{Type: TypeCustom, Custom: &Custom{CustomType: customType, Data: raw}}
	}}
}

// ModeSwitch records a switch to mode ("none" leaves a mode): data is
// encoded as JSON when appended; nil leaves it out.
func ModeSwitch(mode string, data any) Record {
	return encodedRecord{kind: "mode change", data: data, make: func(raw []byte) *Entry {
		return &Entry{Type: TypeModeChange, ModeChange: &ModeChange{Mode: mode, Data: raw}}
	}}
}

// encodedRecord is a record whose data is encoded as JSON on appending.
type encodedRecord struct {
	kind string // for the error: "custom entry", "mode change"
	data any
	make func(raw []byte) *Entry
}

func (r encodedRecord) entry() (*Entry, error) {
	raw, err := rawJSON(r.data)
	if err != nil {
		return nil, fmt.Errorf("append %s: %w", r.kind, err)
	}
	return r.make(raw), nil
}

func (c ModelChange) entry() (*Entry, error) {
	return &Entry{Type: TypeModelChange, ModelChange: &c}, nil
}

func (c ThinkingLevelChange) entry() (*Entry, error) {
	return &Entry{Type: TypeThinkingLevelChange, ThinkingLevelChange: &c}, nil
}

func (c ServiceTierChange) entry() (*Entry, error) {
	return &Entry{Type: TypeServiceTierChange, ServiceTierChange: &c}, nil
}

// entry of a Compaction: FirstKeptEntryID should name an entry on the
// current path.
func (c Compaction) entry() (*Entry, error) {
	return &Entry{Type: TypeCompaction, Compaction: &c}, nil
}

func (c Custom) entry() (*Entry, error) {
	return &Entry{Type: TypeCustom, Custom: &c}, nil
}

// entry of a CustomMessage: an empty Attribution is recorded as "agent".
func (c CustomMessage) entry() (*Entry, error) {
	if c.Attribution == "" {
		c.Attribution = "agent"
	}
	return &Entry{Type: TypeCustomMessage, CustomMessage: &c}, nil
}

func (l Label) entry() (*Entry, error) {
	return &Entry{Type: TypeLabel, Label: &l}, nil
}

func (t TTSRInjection) entry() (*Entry, error) {
	t.InjectedRules = nonNil(t.InjectedRules)
	return &Entry{Type: TypeTTSRInjection, TTSRInjection: &t}, nil
}

func (si SessionInit) entry() (*Entry, error) {
	si.Tools = nonNil(si.Tools)
	return &Entry{Type: TypeSessionInit, SessionInit: &si}, nil
}

func (c ModeChange) entry() (*Entry, error) {
	return &Entry{Type: TypeModeChange, ModeChange: &c}, nil
}

func (s MCPToolSelection) entry() (*Entry, error) {
	s.SelectedToolNames = slices.Clone(nonNil(s.SelectedToolNames))
	return &Entry{Type: TypeMCPToolSelection, MCPToolSelection: &s}, nil
}
