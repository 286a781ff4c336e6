package hashline

import (
	"errors"
	"testing"
)

func TestParseAnchor(t *testing.T) {
	good := map[string]Ref{
		"41th": {41, "th"}, " 1aa ": {1, "aa"}, "119sr": {119, "sr"}, "999999999zz": {999999999, "zz"},
	}
	for in, want := range good {
		got, err := ParseAnchor(in)
		if err != nil || got != want {
			t.Errorf("ParseAnchor(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "41", "th", "41t", "41tha", "41TH", "0ab", "041ab", "-1ab", "4 1ab",
		"41th|x", "1234567890ab", "41t1", "BOF", "EOF", "41**", "४१ab"} {
		if _, err := ParseAnchor(in); !errors.Is(err, ErrBadAnchor) {
			t.Errorf("ParseAnchor(%q) err = %v", in, err)
		}
	}
}

func TestParseRange(t *testing.T) {
	a, b, err := ParseRange("4fb..6qx")
	if err != nil || a != (Ref{4, "fb"}) || b != (Ref{6, "qx"}) {
		t.Fatalf("got %v %v %v", a, b, err)
	}
	if _, _, err := ParseRange(" 5ab .. 5ab "); err != nil {
		t.Fatal(err)
	}
	cases := map[string]error{
		"4fb":         ErrNotRange,
		"4fb..":       ErrRangeShape,
		"..4fb":       ErrRangeShape,
		"4fb...6qx":   ErrRangeShape,
		"4fb..6qx..7": ErrRangeShape,
		"6qx..4fb":    ErrRangeReversed,
		"5ab..5cd":    ErrRangeConflict,
	}
	for in, want := range cases {
		if _, _, err := ParseRange(in); !errors.Is(err, want) {
			t.Errorf("ParseRange(%q) err = %v, want %v", in, err, want)
		}
	}
}

func TestCheck(t *testing.T) {
	lines := []string{"alpha", "}", "beta"}
	ok := Ref{2, LineHash(2, "}")}
	if err := Check(ok, lines); err != nil {
		t.Fatal(err)
	}
	var oor *OutOfRangeError
	if err := Check(Ref{4, "ab"}, lines); !errors.As(err, &oor) || err.Error() != "Line 4 does not exist (file has 3 lines)" {
		t.Fatalf("out of range: %v", err)
	}
	bad := Ref{1, "zy"}
	if bad.Hash == LineHash(1, "alpha") {
		bad.Hash = "zx"
	}
	var mm *MismatchError
	if err := Check(bad, lines); !errors.As(err, &mm) || mm.Actual != LineHash(1, "alpha") {
		t.Fatalf("mismatch: %v", err)
	}
}
