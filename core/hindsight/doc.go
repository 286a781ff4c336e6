// Package hindsight is the client of a Hindsight memory server (the
// memory.backend=hindsight backend): recall and reflect ask the bank,
// retain queues memories and writes them in batches.
//
// Every request has a deadline (Client.Timeout, DefaultTimeout when
// zero) on top of the caller's context, so a server that stalls fails
// the call instead of holding the session.
package hindsight
