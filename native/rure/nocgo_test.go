//go:build !cgo

package rure

import (
	"errors"
	"testing"
)

func TestUnavailableWithoutCgo(t *testing.T) {
	if Available {
		t.Fatal("Available is true without cgo")
	}
	if _, err := Compile("a"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Compile: %v", err)
	}
	if _, err := CompileOptions("a", FlagDefault, NewOptions()); !errors.Is(err, ErrUnavailable) {
		t.Errorf("CompileOptions: %v", err)
	}
	if _, err := NewLineMatcher("a", LineOptions{}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("NewLineMatcher: %v", err)
	}
}
