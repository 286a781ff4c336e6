package main

import (
	"context"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
)

// endSignals are the signals that end gopi. One goroutine watches them
// for the whole process (watchSignals). A part of gopi that handles one
// of them gracefully claims it (claimSignal): the first Ctrl-C cancels
// the run (interruptContext), the first SIGTERM or SIGHUP of an agent run
// does the same (trapTermSignals). A claim catches one signal. A signal
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

// claimSignal catches the next of sigs: it arrives on the returned
// channel instead of ending the process. release withdraws the claim if
// it has not caught anything yet.
func claimSignal(sigs ...os.Signal) (caught <-chan os.Signal, release func()) {
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

// interruptContext returns a context cancelled by the first Ctrl-C; a
// second one ends the process (endBySignal). stop releases the claim.
func interruptContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	caught, release := claimSignal(os.Interrupt)
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

// catchBrokenPipe makes a write to a pipe whose reader has gone fail with
// EPIPE instead of ending gopi by SIGPIPE. The signal is caught, never
// ignored: an ignored signal stays ignored in every program gopi starts
// (a shell's `yes | head -1` would then print "Broken pipe" errors
// forever), while a caught one is reset to the default for them.
func catchBrokenPipe() {
	brokenPipe.Do(func() {
		// Nobody reads the channel: the signal package drops what does
		// not fit, and catching is all that is wanted.
		signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	})
}
