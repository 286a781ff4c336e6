package jscell

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/eval/cell"
)

// BenchmarkCell is a JavaScript cell in a warm runtime: `x = 1 + 1`.
func BenchmarkCell(b *testing.B) {
	r := New(Options{})
	req := cell.Request{Code: "var x = 1 + 1", Timeout: time.Minute, Output: io.Discard}
	if _, err := r.Run(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if res, err := r.Run(context.Background(), req); err != nil || res.ExitCode != 0 {
			b.Fatal(err, res)
		}
	}
}
