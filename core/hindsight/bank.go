package hindsight

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/config"
)

// Bank is a session's view of its Hindsight bank: the client, the bank
// and tags its scoping gives, and the retain queue. Subagents share
// their parent's.
type Bank struct {
	client    *Client
	cfg       config.Hindsight
	queue     *Queue
	idMu      sync.Mutex
	sessionID string // the session the memories come from (metadata.session_id)
	mission   sync.Once
	now       func() time.Time
}

// NewBank returns the bank of cfg for the session sessionID; hc is the
// HTTP client (nil: the default); onError hears of failed background
// writes.
func NewBank(cfg config.Hindsight, hc *http.Client, sessionID string, onError func(error)) *Bank {
	b := &Bank{client: &Client{BaseURL: cfg.APIURL, Token: cfg.APIToken, HTTP: hc}, cfg: cfg, sessionID: sessionID, now: time.Now}
	b.queue = NewQueue(b.write, onError, 0)
	return b
}

// SetTimeout bounds each request (tests use short ones).
func (b *Bank) SetTimeout(d time.Duration) { b.client.Timeout = d }

// SetInterval sets how long a small batch waits (tests).
func (b *Bank) SetInterval(d time.Duration) { b.queue.interval = d }

// Recall returns the bank's memories relevant to query as the recall
// tool's text.
func (b *Bank) Recall(ctx context.Context, query string) (string, error) {
	mems, err := b.client.Recall(ctx, b.cfg.BankID, query, b.query())
	if err != nil {
		return "", err
	}
	if len(mems) == 0 {
		return "No relevant memories found.", nil
	}
	return fmt.Sprintf("Found %d relevant memories (as of %s UTC):\n\n%s", len(mems), utcMinute(b.now()), formatMemories(mems)), nil
}

// query is the recall options of the configuration.
func (b *Bank) query() Query {
	return Query{Budget: b.cfg.RecallBudget, MaxTokens: b.cfg.RecallMax, Types: b.cfg.RecallTypes, Tags: b.cfg.RecallTags}
}

// Client returns the bank's server client.
func (b *Bank) Client() *Client { return b.client }

// ID returns the bank's id.
func (b *Bank) ID() string { return b.cfg.BankID }

// Config returns the configuration the bank was made with.
func (b *Bank) Config() config.Hindsight { return b.cfg }

// ensureMission sets the bank's missions once, when configured; a
// failure leaves the bank as it is.
func (b *Bank) ensureMission(ctx context.Context) {
	if b.cfg.BankMission != "" {
		b.mission.Do(func() {
			_ = b.client.SetMission(ctx, b.cfg.BankID, b.cfg.BankMission, b.cfg.RetainMisson)
		})
	}
}

// Reflect returns the server's answer to query over the bank.
func (b *Bank) Reflect(ctx context.Context, query, extra string) (string, error) {
	text, err := b.client.Reflect(ctx, b.cfg.BankID, query, Query{Budget: b.cfg.RecallBudget, Context: extra, Tags: b.cfg.RecallTags})
	if err != nil {
		return "", err
	}
	if t := strings.TrimSpace(text); t != "" {
		return t, nil
	}
	return "No relevant information found to reflect on.", nil
}

// Retain queues items (content and optional context) for writing.
func (b *Bank) Retain(items []Item) error {
	out := make([]Item, len(items))
	for i, it := range items {
		if it.Context == "" {
			it.Context = b.cfg.RetainCtx
		}
		it.Metadata = map[string]string{"session_id": b.session()}
		it.Tags = b.cfg.RetainTags
		out[i] = it
	}
	return b.queue.Enqueue(out...)
}

// session returns the id of the session the memories come from.
func (b *Bank) session() string {
	b.idMu.Lock()
	defer b.idMu.Unlock()
	return b.sessionID
}

// report tells whoever hears of failed background writes (NewBank's
// onError) of err.
func (b *Bank) report(err error) {
	if b.queue.onError != nil {
		b.queue.onError(err)
	}
}

// Flush writes the queued memories now.
func (b *Bank) Flush() { b.queue.Flush() }

// Close writes what the queue holds, waiting until ctx ends.
func (b *Bank) Close(ctx context.Context) { b.queue.Close(ctx) }

// write sends one batch, setting the bank's mission first once.
func (b *Bank) write(ctx context.Context, items []Item) error {
	b.ensureMission(ctx)
	if err := b.client.Retain(ctx, b.cfg.BankID, items, true); err != nil {
		return fmt.Errorf("%d memories were not retained: %w", len(items), err)
	}
	return nil
}
