//go:build !unix

package shell

import (
	"context"
	"errors"
	"io"
)

// PTYRequest is a command to run in a pseudo-terminal.
type PTYRequest struct {
	Request
	Cols, Rows int
	Input      <-chan []byte
	Raw        io.Writer
}

// RunPTY is not available on this system.
func RunPTY(context.Context, Config, PTYRequest) (Result, error) {
	return Result{}, errors.New("pseudo-terminals are not supported on this system")
}

// RunPTY is not available on this system.
func (p *Pool) RunPTY(ctx context.Context, req PTYRequest) (Result, error) {
	return RunPTY(ctx, p.cfg, req)
}
