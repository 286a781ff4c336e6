package fscache

import (
	"testing"
	"time"
)

func TestPolicyFromEnv(t *testing.T) {
	for _, tc := range []struct {
		ttl, recheck, max string
		want              Policy
	}{
		{"", "", "", DefaultPolicy},
		{"0", "0", "1", Policy{TTL: 0, EmptyRecheck: 0, MaxEntries: 1}},
		{"250", "50", "3", Policy{TTL: 250 * time.Millisecond, EmptyRecheck: 50 * time.Millisecond, MaxEntries: 3}},
		{"abc", "-1", "0", DefaultPolicy},
		{" 5", "1.5", "-3", DefaultPolicy},
		{"99999999999999999999", "1e3", "0x10", DefaultPolicy},
	} {
		t.Setenv(EnvTTL, tc.ttl)
		t.Setenv(EnvEmptyRecheck, tc.recheck)
		t.Setenv(EnvMaxEntries, tc.max)
		if got := PolicyFromEnv(); got != tc.want {
			t.Errorf("env (%q, %q, %q): got %+v, want %+v", tc.ttl, tc.recheck, tc.max, got, tc.want)
		}
	}
}
