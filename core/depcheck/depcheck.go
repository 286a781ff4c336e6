// Package depcheck finds out whether the programs an optional feature
// needs are installed — a Python interpreter, speech-to-text's recorder
// and whisper — for `gopi setup`. It only looks (PATH lookups and a
// short probe run); it installs nothing.
package depcheck

import (
	"context"
	"os/exec"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// probeTimeout bounds one probe run of an interpreter.
const probeTimeout = 20 * time.Second

// Env is what a check may consult: a PATH lookup (exec.LookPath when
// nil) and the environment probes run with (gopi's when nil).
type Env struct {
	LookPath func(string) (string, error)
	Environ  []string
}

func (e Env) lookPath(name string) (string, bool) {
	look := e.LookPath
	if look == nil {
		look = exec.LookPath
	}
	p, err := look(name)
	return p, err == nil
}

// run runs path with args and reports whether it exited 0 in time.
func (e Env) run(ctx context.Context, path string, args ...string) bool {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = e.Environ
	childproc.PrepareCancelGroup(cmd)
	return cmd.Run() == nil
}

// Python is the state of the Python interpreter.
type Python struct {
	Available bool   `json:"available"`            // it ran a trivial program
	Path      string `json:"pythonPath,omitempty"` // the interpreter found ("" none)
}

// CheckPython finds python or python3 on PATH and runs a trivial program
// with it.
func CheckPython(ctx context.Context, e Env) Python {
	for _, name := range []string{"python3", "python"} {
		if p, ok := e.lookPath(name); ok {
			return Python{Path: p, Available: e.run(ctx, p, "-c", "import sys; sys.exit(0)")}
		}
	}
	return Python{}
}

// Part is one dependency of speech-to-text.
type Part struct {
	Available bool   `json:"available"`
	Tool      string `json:"tool,omitempty"` // the program found
	Hint      string `json:"installHint"`    // what to install when missing
}

// STT is the state of speech-to-text's dependencies.
type STT struct {
	Recorder Part `json:"recorder"` // sox, ffmpeg or arecord records the microphone
	Python   Part `json:"python"`
	Whisper  Part `json:"whisper"` // the openai-whisper Python package
}

// Ready reports whether every part is there.
func (s STT) Ready() bool { return s.Recorder.Available && s.Python.Available && s.Whisper.Available }

// CheckSTT looks for a recorder, a Python interpreter and its whisper
// package.
func CheckSTT(ctx context.Context, e Env) STT {
	s := STT{
		Recorder: Part{Hint: "install SoX (sudo apt install sox) or FFmpeg (sudo apt install ffmpeg)"},
		Python:   Part{Hint: "install Python 3.8 or later (sudo apt install python3)"},
		Whisper:  Part{Hint: "pip install openai-whisper"},
	}
	for _, name := range []string{"sox", "ffmpeg", "arecord"} {
		if _, ok := e.lookPath(name); ok {
			s.Recorder.Available, s.Recorder.Tool = true, name
			break
		}
	}
	py := CheckPython(ctx, e)
	s.Python.Available, s.Python.Tool = py.Available, py.Path
	if py.Available {
		s.Whisper.Available = e.run(ctx, py.Path, "-c", "import whisper")
		s.Whisper.Hint = py.Path + " -m pip install openai-whisper"
	}
	return s
}
