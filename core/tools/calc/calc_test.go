package calc

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// A batch answers one line per calculation, prefix and suffix verbatim,
// with the structured results in the details.
func TestExecuteBatch(t *testing.T) {
	res, err := tool.Run(context.Background(), New(nil), json.RawMessage(`{"calculations":[
		{"expression":"2 + 2","prefix":"","suffix":""},
		{"expression":"0x10 * 1.5","prefix":"$","suffix":" total"},
		{"expression":"-0","prefix":"[","suffix":"]"}]}`), nil)
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	if got, want := res.FirstText(), "4\n$24 total\n[0]"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	d := res.Details.(*Details)
	raw, _ := json.Marshal(d)
	want := `{"results":[{"expression":"2 + 2","value":4,"output":"4"},{"expression":"0x10 * 1.5","value":24,"output":"$24 total"},{"expression":"-0","value":0,"output":"[0]"}]}`
	if string(raw) != want {
		t.Errorf("details %s\nwant    %s", raw, want)
	}
}

// One failing expression fails the whole batch with its error alone.
func TestExecuteOneErrorFailsBatch(t *testing.T) {
	res, err := tool.Run(context.Background(), New(nil), json.RawMessage(`{"calculations":[
		{"expression":"1 + 1","prefix":"","suffix":""},
		{"expression":"1 / 0","prefix":"","suffix":""},
		{"expression":"x","prefix":"","suffix":""}]}`), nil)
	if err != nil || !res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	if got := res.FirstText(); got != "Expression result is not a finite number" {
		t.Errorf("text %q", got)
	}
}

// A missing field is refused by the schema, as omp's strict schema does.
func TestExecuteSchema(t *testing.T) {
	res, _ := tool.Run(context.Background(), New(nil), json.RawMessage(`{"calculations":[{"expression":"1"}]}`), nil)
	if !res.IsError {
		t.Fatalf("a calculation without prefix and suffix was accepted: %+v", res)
	}
}

// The parameters are omp's calculator schema, member for member.
func TestDefinitionSchema(t *testing.T) {
	got, _ := json.Marshal(New(nil).Definition().Parameters)
	want := `{"type":"object","properties":{"calculations":{"type":"array","description":"calculations to evaluate","items":{"type":"object","properties":{"expression":{"type":"string","description":"math expression","examples":["2 + 2","sqrt(16)"]},"prefix":{"type":"string","description":"prefix text"},"suffix":{"type":"string","description":"suffix text"}},"required":["expression","prefix","suffix"]}}},"required":["calculations"]}`
	var g, w any
	_ = json.Unmarshal(got, &g)
	_ = json.Unmarshal([]byte(want), &w)
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("schema\n%s\nwant\n%s", gb, wb)
	}
}

// calc is offered only with calc.enabled, which is off by default.
func TestAvailable(t *testing.T) {
	env := tool.NewEnv(t.TempDir())
	if Available(env) {
		t.Error("calc offered with the default settings; omp's calc.enabled is off by default")
	}
	env.Settings.CalcEnabled = true
	if !Available(env) {
		t.Error("calc not offered with calc.enabled")
	}
}

// A cancelled call stops before evaluating.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, []Calculation{{Expression: "1"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v", err)
	}
}

// Deep nesting is refused with an error, not a stack overflow.
func TestTooDeep(t *testing.T) {
	for _, expr := range []string{
		repeat("(", 5000) + "1" + repeat(")", 5000),
		repeat("-", 5000) + "1",
		"1" + repeat(" ** 1", 5000),
	} {
		if _, err := Evaluate(expr); err != errTooDeep {
			t.Errorf("%.20s...: %v", expr, err)
		}
	}
	if v, err := Evaluate(repeat("(", 500) + "1" + repeat(")", 500)); err != nil || v != 1 {
		t.Errorf("500 parentheses: %v %v", v, err)
	}
}

func repeat(s string, n int) string {
	b := make([]byte, 0, len(s)*n)
	for range n {
		b = append(b, s...)
	}
	return string(b)
}

// FormatNumber writes what JavaScript's String() writes.
func TestFormatNumber(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1.5, "-1.5"},
		{123456789012345680000, "123456789012345680000"}, {1e21, "1e+21"}, {1.5e21, "1.5e+21"},
		{1e-6, "0.000001"}, {1e-7, "1e-7"}, {1.234e-7, "1.234e-7"}, {0.30000000000000004, "0.30000000000000004"},
		{5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"}, {100, "100"}, {0.5, "0.5"},
	} {
		if got := FormatNumber(c.v); got != c.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// Evaluate never panics; a success is finite, not -0, and written so
// that it reads back as itself; a failure is one of the tool's errors;
// parenthesising a valid expression keeps its value.
func FuzzEvaluate(f *testing.F) {
	for _, s := range []string{"2 + 2", "2 ** 3 ** 2", "-2 ** 2", "(1", "0x1F % 0b11", "1e999", ".5e-3 * 0o17", "1 / 0", "😀", "((((1))))", "1.e5", "0x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		v, err := Evaluate(expr)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Msg == "" {
				t.Fatalf("%q: error %T %v", expr, err, err)
			}
			return
		}
		if math.IsInf(v, 0) || math.IsNaN(v) || (v == 0 && math.Signbit(v)) {
			t.Fatalf("%q: result %v", expr, v)
		}
		s := FormatNumber(v)
		if back, err := strconv.ParseFloat(s, 64); err != nil || back != v {
			t.Fatalf("%q: %v written %q reads back as %v (%v)", expr, v, s, back, err)
		}
		if w, err := Evaluate("(" + expr + ")"); err == nil && w != v {
			t.Fatalf("%q = %v but (%q) = %v", expr, v, expr, w)
		}
	})
}
