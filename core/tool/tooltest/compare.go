package tooltest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// SameResults runs every call (the tool's JSON arguments) on tool a and
// on tool b and fails the test, naming stage, where their results
// (text and details, as JSON) or whether they failed differ: the
// differential tests of two ways to one answer (a walk and an index).
func SameResults(t *testing.T, stage string, a, b tool.Tool, calls []string) {
	t.Helper()
	for _, args := range calls {
		ra, errA := tool.Run(context.Background(), a, json.RawMessage(args), nil)
		rb, errB := tool.Run(context.Background(), b, json.RawMessage(args), nil)
		ja, _ := json.Marshal(ra)
		jb, _ := json.Marshal(rb)
		if string(ja) != string(jb) || (errA == nil) != (errB == nil) {
			t.Errorf("%s, %s:\nfirst:  %s (%v)\nsecond: %s (%v)", stage, args, ja, errA, jb, errB)
		}
	}
}
