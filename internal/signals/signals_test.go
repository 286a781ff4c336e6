package signals

import (
	"context"
	"os"
	"syscall"
	"testing"
)

// A signal goes to the latest claim for it, once; a released claim gets
// nothing, and a signal nobody claims is not delivered.
func TestClaimDelivery(t *testing.T) {
	first, releaseFirst := Claim(syscall.SIGHUP)
	defer releaseFirst()
	second, releaseSecond := Claim(syscall.SIGHUP, syscall.SIGTERM)
	if !deliverSignal(syscall.SIGHUP) {
		t.Fatal("SIGHUP not delivered to a claim")
	}
	if got := <-second; got != syscall.SIGHUP {
		t.Errorf("latest claim caught %v", got)
	}
	if deliverSignal(syscall.SIGTERM) {
		t.Error("a claim caught a second signal")
	}
	releaseSecond() // already used: a no-op
	if !deliverSignal(syscall.SIGHUP) {
		t.Fatal("the earlier claim did not get the next SIGHUP")
	}
	if got := <-first; got != syscall.SIGHUP {
		t.Errorf("earlier claim caught %v", got)
	}
	third, releaseThird := Claim(os.Interrupt)
	releaseThird()
	if deliverSignal(os.Interrupt) {
		t.Error("a released claim caught a signal")
	}
	select {
	case sig := <-third:
		t.Errorf("released claim received %v", sig)
	default:
	}
}

// TrapTerm's context ends with the signal it caught, and reports none
// when stopped without one.
func TestTrapTerm(t *testing.T) {
	ctx, caught, stop := TrapTerm(context.Background())
	if !deliverSignal(syscall.SIGTERM) {
		t.Fatal("TrapTerm did not claim SIGTERM")
	}
	<-ctx.Done()
	if got := caught(); got != syscall.SIGTERM {
		t.Errorf("caught %v, want SIGTERM", got)
	}
	stop()

	ctx, caught, stop = TrapTerm(context.Background())
	stop()
	if ctx.Err() == nil || caught() != nil {
		t.Errorf("after stop: err %v, caught %v", ctx.Err(), caught())
	}
	if deliverSignal(syscall.SIGHUP) {
		t.Error("a stopped trap still claims SIGHUP")
	}
}

// InterruptContext is cancelled by the Ctrl-C it claimed.
func TestInterruptContext(t *testing.T) {
	ctx, stop := InterruptContext()
	defer stop()
	if !deliverSignal(os.Interrupt) {
		t.Fatal("InterruptContext did not claim SIGINT")
	}
	<-ctx.Done()
}
