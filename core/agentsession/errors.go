package agentsession

import "errors"

var errEmptyName = errors.New("Session name cannot be empty")

// ErrWorking is returned by the operations that change the conversation
// outside a run (Tree.Navigate, Tree.Branch, Tree.New, Tree.Switch,
// Compactor.Handoff) while a run streams.
var ErrWorking = errors.New("the agent is working: wait until it has finished, or abort it first")
