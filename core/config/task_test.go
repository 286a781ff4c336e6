package config

import (
	"reflect"
	"testing"
)

func TestTaskDefaults(t *testing.T) {
	c := newFixture(t).load()
	got := c.Task()
	want := Task{MaxConcurrency: 32, MaxRecursionDepth: 2, AgentModelOverrides: map[string]string{},
		MaxOutputBytes: DefaultTaskMaxOutputBytes, MaxOutputLines: DefaultTaskMaxOutputLines}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestTaskSettingsAndCaps(t *testing.T) {
	for _, tc := range []struct {
		bytes, lines string
		wantB, wantL int
	}{
		{"1000", "7", 1000, 7},
		{"0", "-3", DefaultTaskMaxOutputBytes, DefaultTaskMaxOutputLines},
		{"lots", " 12 ", DefaultTaskMaxOutputBytes, 12},
	} {
		f := newFixture(t, EnvTaskMaxOutputBytes+"="+tc.bytes, EnvTaskMaxOutputLines+"="+tc.lines)
		f.write("home/.gopi/agent/config.yml", "task:\n  maxConcurrency: 3\n  maxRecursionDepth: -1\n  disabledAgents: [plan]\n  agentModelOverrides:\n    explore: pi/smol\n")
		got := f.load().Task()
		if got.MaxConcurrency != 3 || got.MaxRecursionDepth != -1 || !reflect.DeepEqual(got.DisabledAgents, []string{"plan"}) ||
			got.AgentModelOverrides["explore"] != "pi/smol" {
			t.Errorf("settings: %+v", got)
		}
		if got.MaxOutputBytes != tc.wantB || got.MaxOutputLines != tc.wantL {
			t.Errorf("caps (%q, %q): got %d, %d; want %d, %d", tc.bytes, tc.lines, got.MaxOutputBytes, got.MaxOutputLines, tc.wantB, tc.wantL)
		}
	}
}
