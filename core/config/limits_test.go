package config

import (
	"testing"
	"time"
)

// read.sqlite.timeoutMs sets the time limit of a SQLite read; unset or
// not positive keeps the default.
func TestReadSQLiteTimeout(t *testing.T) {
	for _, c := range []struct {
		data map[string]any
		want time.Duration
	}{
		{nil, DefaultSQLiteTimeout},
		{map[string]any{"read": map[string]any{"sqlite": map[string]any{"timeoutMs": 1500}}}, 1500 * time.Millisecond},
		{map[string]any{"read.sqlite.timeoutMs": 0}, DefaultSQLiteTimeout},
		{map[string]any{"read.sqlite.timeoutMs": -5}, DefaultSQLiteTimeout},
	} {
		s, err := NewSettings("", Layer{Kind: LayerGlobal, Data: c.data})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Read().SQLiteTimeout; got != c.want {
			t.Errorf("%v: %v, want %v", c.data, got, c.want)
		}
	}
}

// tools.extensionTimeoutMs bounds an extension tool's call; unset or not
// positive keeps the default.
func TestExtensionToolTimeout(t *testing.T) {
	for _, c := range []struct {
		data map[string]any
		want time.Duration
	}{
		{nil, DefaultExtensionToolTimeout},
		{map[string]any{"tools": map[string]any{"extensionTimeoutMs": 2500}}, 2500 * time.Millisecond},
		{map[string]any{"tools.extensionTimeoutMs": 0}, DefaultExtensionToolTimeout},
	} {
		s, err := NewSettings("", Layer{Kind: LayerGlobal, Data: c.data})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.ExtensionToolTimeout(); got != c.want {
			t.Errorf("%v: %v, want %v", c.data, got, c.want)
		}
	}
}
