package agentsession

import (
	"context"
	"strings"
	"time"
	"unicode"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
)

// titleGrace is how long Close waits for a title still being generated.
const titleGrace = 3 * time.Second

// titleTimeout bounds one title request.
const titleTimeout = 30 * time.Second

// titleInstructions is the system prompt of the title request.
const titleInstructions = `You give conversations short titles. Read the user's first message and reply with a title of at most six words that says what the conversation is about. Reply with the title only: no quotes, no trailing punctuation, no explanation.`

// maybeTitle starts generating a title from the first prompt of a new,
// unnamed, stored session, in the background, with the smol model.
func (s *Session) maybeTitle(text string) {
	store := s.Store()
	s.mu.Lock()
	if s.titleOnce || s.opts.NoTitle || !s.cfg.TitleGeneration() || store.File() == "" || store.Name() != "" || len(s.agent.Messages()) > 0 {
		s.mu.Unlock()
		return
	}
	s.titleOnce = true
	s.mu.Unlock()
	model := s.smolModel()
	if model == nil || strings.TrimSpace(text) == "" {
		return
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		ctx, cancel := context.WithTimeout(s.bgCtx, titleTimeout)
		defer cancel()
		if title := s.generateTitle(ctx, model, text); title != "" {
			// A failure to rename is latched by the store like any write.
			_, _ = store.SetName(title, "auto")
		}
	}()
}

// smolModel returns the model for small tasks: the smol role, else a small
// model of the current provider with credentials, else the current model.
func (s *Session) smolModel() *ai.Model {
	if ref := s.cfg.Settings.ModelRole("smol"); ref != "" {
		q, _, _ := models.ParseModelArg(ref)
		if m, err := s.reg.Find(q); err == nil && s.reg.HasAuth(m) {
			return m
		}
	}
	cur := s.agent.Model()
	if cur == nil {
		return nil
	}
	if m := s.reg.SmallModel(cur.Provider); m != nil && s.reg.HasAuth(m) {
		return m
	}
	return cur
}

// generateTitle asks model for a title; "" when it fails.
func (s *Session) generateTitle(ctx context.Context, model *ai.Model, text string) string {
	if len(text) > 2000 {
		text = text[:2000]
	}
	req := &ai.Request{
		Model:        model,
		SystemPrompt: titleInstructions,
		Messages:     []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(text)}, Timestamp: nowMillis()}},
		MaxTokens:    40,
		Thinking:     ai.ThinkingOff,
	}
	s.prepareRequest(req)
	st := s.streamFunc()(ctx, req)
	msg := st.Result(ctx)
	if msg == nil || msg.StopReason == ai.StopReasonError || msg.StopReason == ai.StopReasonAborted {
		return ""
	}
	return cleanTitle(msg.Text())
}

// cleanTitle keeps the first line, without quotes and trailing
// punctuation, at most 80 characters.
func cleanTitle(t string) string {
	t = strings.TrimSpace(t)
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[:i]
	}
	t = strings.Trim(t, "\"'`*# ")
	t = strings.TrimRightFunc(t, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	if r := []rune(t); len(r) > 80 {
		t = string(r[:80])
	}
	return t
}

// waitBackground waits up to d for background work, then cancels it and
// waits for it to stop.
func (s *Session) waitBackground(d time.Duration) {
	done := make(chan struct{})
	go func() {
		s.bg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
		s.bgCancel()
		<-done
	}
	s.bgCancel()
}
