package models

import (
	"strings"
	"testing"
)

func TestSmallModel(t *testing.T) {
	reg, err := Load(Options{NoFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	if m := reg.SmallModel("anthropic"); m == nil || !strings.Contains(m.ID, "haiku") {
		t.Fatalf("anthropic: %v", m)
	}
	if m := reg.SmallModel("no-such-provider"); m != nil {
		t.Fatalf("%v", m)
	}
}
