package archcheck

import (
	"fmt"
	"testing"
)

// TestScanFixture checks the counting on a package built to cross both
// limits by one.
func TestScanFixture(t *testing.T) {
	rep, err := Scan("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rep.Methods); got != "[big.Big (31) big.Generic (2)]" {
		t.Errorf("methods %s", got)
	}
	if got := fmt.Sprint(rep.Mutexes); got != "[big.Locked (13) big.Split (7) big.Small (2)]" {
		t.Errorf("mutexes %s", got)
	}
	if got := fmt.Sprint(Over(rep.Methods, MaxExportedMethods)); got != "[big.Big (31)]" {
		t.Errorf("over the method limit: %s", got)
	}
	if got := fmt.Sprint(Over(rep.Mutexes, MaxGuarded)); got != "[big.Locked (13)]" {
		t.Errorf("over the guarded-field limit: %s", got)
	}
}

// TestCoreMethods is the architecture's rule: no type in core/ declares
// more than MaxExportedMethods exported methods. A type above it should be
// split into parts that each own a concern (as agentsession.Session's
// Turn, Tree, Model, Tools, … are).
func TestCoreMethods(t *testing.T) {
	rep := scanCore(t)
	if len(rep.Methods) < 50 {
		t.Fatalf("only %d types with methods under core/: is the path right?", len(rep.Methods))
	}
	checkLimit(t, rep.Methods, MaxExportedMethods, overLimit, "exported methods")
}

// overLimit lists the types above MaxExportedMethods that are still to be
// split, with their count when listed: they may shrink, not grow, and come
// off the list once under the limit.
var overLimit = map[string]int{}

// TestCoreMutexes is the architecture's rule: no mutex in core/ guards
// more than MaxGuarded fields. By the code's convention a mutex guards the
// fields that follow it up to the next blank line or the next mutex; fields
// set when the value is made go before it. A struct above the limit should
// give the parts of its state that have their own life their own type and
// lock (as agent.Agent's run state and queues are).
func TestCoreMutexes(t *testing.T) {
	rep := scanCore(t)
	if len(rep.Mutexes) < 20 {
		t.Fatalf("only %d structs with a mutex under core/: is the path right?", len(rep.Mutexes))
	}
	checkLimit(t, rep.Mutexes, MaxGuarded, overGuardLimit, "fields guarded by one mutex")
}

// overGuardLimit lists the structs whose mutex guards more than MaxGuarded
// fields and that are still to be split, with their count when listed, as
// overLimit does for methods. None is listed now.
var overGuardLimit = map[string]int{}

func scanCore(t *testing.T) *Report {
	t.Helper()
	rep, err := Scan("../../core")
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// checkLimit fails for each count above limit that listed does not name,
// or that grew past its listed count, and for each listed type that is no
// longer above the limit.
func checkLimit(t *testing.T, counts []TypeCount, limit int, listed map[string]int, what string) {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range Over(counts, limit) {
		key := c.Dir + "." + c.Type
		seen[key] = true
		switch was, ok := listed[key]; {
		case !ok:
			t.Errorf("core/%s %s: more than %d", c, what, limit)
		case c.Count > was:
			t.Errorf("core/%s %s: above the limit, and more than the %d it had when it was listed", c, what, was)
		}
	}
	for key := range listed {
		if !seen[key] {
			t.Errorf("core/%s is no longer above the limit of %s: take it off the list", key, what)
		}
	}
}
