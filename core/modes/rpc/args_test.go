package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

type testArgs struct {
	Name *string `json:"name"`
	N    int     `json:"n"`
}

func (a *testArgs) check() error {
	if a.Name == nil {
		return errors.New(`"name" is required`)
	}
	return nil
}

func TestWithArgs(t *testing.T) {
	var got *testArgs
	cmd := withArgs(func(_ context.Context, _ *server, id json.RawMessage, a *testArgs) (any, error) {
		if string(id) != `"7"` {
			t.Errorf("id = %s", id)
		}
		got = a
		return "ran", nil
	})
	cases := []struct {
		line    string
		wantErr string
	}{
		{`{"type":"x","name":"a","n":3}`, ""},
		{`{"type":"x","n":3}`, `"name" is required`},
		{`{"type":"x","name":"a","n":"3"}`, `invalid command: json: cannot unmarshal string into Go struct field testArgs.n of type int`},
		{`{"type":"x","name":1}`, `invalid command: json: cannot unmarshal number into Go struct field testArgs.name of type string`},
	}
	for _, c := range cases {
		got = nil
		data, err := cmd(context.Background(), nil, json.RawMessage(`"7"`), []byte(c.line))
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%s: err = %v, want %q", c.line, err, c.wantErr)
			}
			if got != nil {
				t.Errorf("%s: the handler ran after a failed decode", c.line)
			}
			continue
		}
		if err != nil || data != "ran" {
			t.Fatalf("%s: %v, %v", c.line, data, err)
		}
		if got == nil || *got.Name != "a" || got.N != 3 {
			t.Errorf("%s: args = %+v", c.line, got)
		}
	}
}

// TestArgsFresh checks that each frame decodes into new arguments: a field
// of an earlier frame never leaks into a later one that omits it.
func TestArgsFresh(t *testing.T) {
	var seen []int
	cmd := withArgs(func(_ context.Context, _ *server, _ json.RawMessage, a *testArgs) (any, error) {
		seen = append(seen, a.N)
		return nil, nil
	})
	for _, line := range []string{`{"name":"a","n":5}`, `{"name":"a"}`} {
		if _, err := cmd(context.Background(), nil, nil, []byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != 2 || seen[0] != 5 || seen[1] != 0 {
		t.Errorf("n per frame = %v, want [5 0]", seen)
	}
}

func TestEnabledFieldRequired(t *testing.T) {
	cmd := withArgs(func(context.Context, *server, json.RawMessage, *enabledField) (any, error) { return nil, nil })
	_, err := cmd(context.Background(), nil, nil, []byte(`{"type":"set_auto_retry"}`))
	if err == nil || err.Error() != `"enabled" (true or false) is required` {
		t.Errorf("err = %v", err)
	}
}
