// Package signals is gopi's handling of the signals that end a process
// and of SIGPIPE: one goroutine watches SIGINT, SIGTERM and SIGHUP for
// the whole process, parts of gopi claim the next one to end their work
// gracefully (Claim, InterruptContext, TrapTerm), and a signal nobody
// claims removes the temporary files of writes in progress before it
// ends the process.
package signals

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
)

// endSignals are the signals that end gopi. One goroutine watches them
// for the whole process (watchSignals). A part of gopi that handles one
// of them gracefully claims it (Claim): the first Ctrl-C cancels the run
// (InterruptContext), the first SIGTERM or SIGHUP of an agent run does
// the same (TrapTerm). A claim catches one signal. A signal
// nobody claims ends the process as it would by default, but only after
// the temporary files of writes still in progress are removed
// (endBySignal), so that an interrupted write leaves nothing behind.
var endSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalClaim is one wish to catch the next of sigs.
type signalClaim struct {
	sigs []os.Signal
	ch   chan os.Signal
}

var signalWatch struct {
	once   sync.Once
	mu     sync.Mutex
	claims []*signalClaim // latest last
}

// watchSignals starts the watching goroutine (once per process).
func watchSignals() {
	signalWatch.once.Do(func() {
		ch := make(chan os.Signal, 4)
		signal.Notify(ch, endSignals...)
		go func() {
			for sig := range ch {
				if !deliverSignal(sig) {
					endBySignal(sig)
				}
			}
		}()
	})
}

// deliverSignal hands sig to the latest claim for it, which it ends, and
// reports whether there was one.
func deliverSignal(sig os.Signal) bool {
	signalWatch.mu.Lock()
	defer signalWatch.mu.Unlock()
	for i := len(signalWatch.claims) - 1; i >= 0; i-- {
		c := signalWatch.claims[i]
		if slices.Contains(c.sigs, sig) {
			signalWatch.claims = slices.Delete(signalWatch.claims, i, i+1)
			c.ch <- sig // buffered, and used once
			return true
		}
	}
	return false
}

// Claim catches the next of sigs: it arrives on the returned
// channel instead of ending the process. release withdraws the claim if
// it has not caught anything yet.
func Claim(sigs ...os.Signal) (caught <-chan os.Signal, release func()) {
	watchSignals()
	c := &signalClaim{sigs: sigs, ch: make(chan os.Signal, 1)}
	signalWatch.mu.Lock()
	signalWatch.claims = append(signalWatch.claims, c)
	signalWatch.mu.Unlock()
	return c.ch, func() {
		signalWatch.mu.Lock()
		defer signalWatch.mu.Unlock()
		if i := slices.Index(signalWatch.claims, c); i >= 0 {
			signalWatch.claims = slices.Delete(signalWatch.claims, i, i+1)
		}
	}
}

// InterruptContext returns a context cancelled by the first Ctrl-C; a
// second one ends the process (endBySignal). stop releases the claim.
func InterruptContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	caught, release := Claim(os.Interrupt)
	go func() {
		select {
		case <-caught:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		release()
		cancel()
	}
}

var brokenPipe sync.Once

// CatchBrokenPipe makes a write to a pipe whose reader has gone fail with
// EPIPE instead of ending gopi by SIGPIPE. The signal is caught, never
// ignored: an ignored signal stays ignored in every program gopi starts
// (a shell's `yes | head -1` would then print "Broken pipe" errors
// forever), while a caught one is reset to the default for them.
func CatchBrokenPipe() {
	brokenPipe.Do(func() {
		// Nobody reads the channel: the signal package drops what does
		// not fit, and catching is all that is wanted.
		signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	})
}

// termSignals end a run as Ctrl-C does — the partial answer is printed and
// kept in the session — with exit status 128+signal, as omp exits:
// `timeout`, `docker stop` or a closed terminal must not lose the answer.
var termSignals = []os.Signal{syscall.SIGTERM, syscall.SIGHUP}

// signalCause is the cancellation cause of a caught signal.
type signalCause struct{ sig os.Signal }

func (c signalCause) Error() string { return "received " + c.sig.String() }

// TrapTerm returns a context cancelled by the first SIGTERM or SIGHUP (a
// second one ends the process), a function telling which signal was
// caught (nil if none), and stop, which withdraws the claim and ends the
// watching goroutine.
func TrapTerm(parent context.Context) (ctx context.Context, caught func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs, release := Claim(termSignals...)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case sig := <-sigs:
			cancel(signalCause{sig})
		case <-ctx.Done():
		}
	}()
	caught = func() os.Signal {
		var c signalCause
		if errors.As(context.Cause(ctx), &c) {
			return c.sig
		}
		return nil
	}
	stop = func() {
		release()
		cancel(nil)
		<-done
	}
	return ctx, caught, stop
}
