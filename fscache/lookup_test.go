package fscache

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// recordingScanner records the calls a Lookup makes.
type recordingScanner struct {
	calls []string
	age   time.Duration // age of the scans GetOrScan returns
	stale bool          // what ShouldRecheckEmpty answers
}

func (r *recordingScanner) GetOrScan(_ context.Context, root string, _ Options) (*Scan, error) {
	r.calls = append(r.calls, "get")
	return &Scan{Root: root, Age: r.age}, nil
}

func (r *recordingScanner) ForceRescan(_ context.Context, root string, _ Options, store bool) (*Scan, error) {
	r.calls = append(r.calls, fmt.Sprintf("rescan(store=%v)", store))
	return &Scan{Root: root}, nil
}

func (r *recordingScanner) ShouldRecheckEmpty(*Scan) bool { return r.stale }

func TestLookupFollowsTheOptInContract(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		useCache, stale bool
		want            []string
		wantFresh       bool
	}{
		// Cache off: one unstored walk, never a recheck.
		{false, true, []string{"rescan(store=false)"}, false},
		// Cache on, fresh enough: the cached scan stands.
		{true, false, []string{"get"}, false},
		// Cache on, stale negative: one stored rescan.
		{true, true, []string{"get", "rescan(store=true)"}, true},
	} {
		s := &recordingScanner{age: time.Second, stale: tc.stale}
		l := Lookup{Scanner: s, Root: "/r", UseCache: tc.useCache}
		scan, err := l.First(ctx)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := l.RecheckEmpty(ctx, scan)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s.calls, tc.want) || (fresh != nil) != tc.wantFresh {
			t.Errorf("useCache=%v stale=%v: calls %v fresh=%v, want %v fresh=%v", tc.useCache, tc.stale, s.calls, fresh != nil, tc.want, tc.wantFresh)
		}
	}
}

func TestLookupDefaultsToTheProcessCache(t *testing.T) {
	if (Lookup{}).scanner() != Default() {
		t.Fatal("a nil Scanner must mean Default()")
	}
}
