package protocol

import (
	"encoding/json"
	"testing"
)

func TestApplyWorkspaceEditJSON(t *testing.T) {
	var p ApplyWorkspaceEditParams
	in := `{"label":"Extract function","edit":{"documentChanges":[{"kind":"delete","uri":"file:///w/a.go"}]}}`
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	if p.Label != "Extract function" || len(p.Edit.DocumentChanges) != 1 || p.Edit.DocumentChanges[0].Delete == nil {
		t.Fatalf("params = %+v", p)
	}
	one := uint32(1)
	for _, tt := range []struct {
		r    ApplyWorkspaceEditResult
		want string
	}{
		{ApplyWorkspaceEditResult{Applied: true}, `{"applied":true}`},
		{ApplyWorkspaceEditResult{FailureReason: "no", FailedChange: &one}, `{"applied":false,"failureReason":"no","failedChange":1}`},
	} {
		b, err := json.Marshal(tt.r)
		if err != nil || string(b) != tt.want {
			t.Errorf("Marshal = %s, %v; want %s", b, err, tt.want)
		}
	}
}
