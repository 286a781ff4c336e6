package fscache

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// A lookup that names no scanner walks afresh every time, even with
// UseCache, and keeps nothing between calls.
func TestLookupWithoutScannerStoresNothing(t *testing.T) {
	root := t.TempDir()
	l := Lookup{Root: root, UseCache: true}
	s, err := l.First(context.Background())
	if err != nil || s.Age != 0 || len(s.Entries) != 0 {
		t.Fatalf("first: %+v %v", s, err)
	}
	if err := os.WriteFile(filepath.Join(root, "new.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = l.First(context.Background())
	if err != nil || s.Age != 0 || len(s.Entries) != 1 {
		t.Fatalf("second: %+v %v", s, err)
	}
	if len(uncached.entries) != 0 {
		t.Fatal("the scanner-less cache stored a scan")
	}
}
