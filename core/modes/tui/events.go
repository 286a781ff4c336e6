package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// onEvent turns a session event into what the screen shows: finished
// parts printed, running parts drawn live.
func (m *model) onEvent(e agent.Event) tea.Cmd {
	switch e := e.(type) {
	case agent.AgentStart:
		m.running, m.started = true, time.Now()
		m.activity++
		return m.tick()
	case agent.AgentEnd:
		m.running = false
		if m.notice == "Aborting…" {
			m.notice = ""
		}
		m.live, m.st = nil, stream{}
		m.activity++
		var redraw tea.Cmd
		if m.keys.redrawCards {
			redraw = m.redrawTranscript()
		}
		return tea.Batch(redraw, m.refreshStatus(), m.scheduleIdle())
	case agent.MessageStart:
		switch msg := e.Message.(type) {
		case *ai.UserMessage:
			if msg.Synthetic {
				return nil
			}
			m.gap = true
			cmd := m.print(m.r.user(userText(msg.Content), imageCount(msg.Content)))
			m.gap, m.lastCard = true, false
			return cmd
		case *message.Custom:
			return m.printSection(m.r.historyMessage(msg, m.calls, m.expand))
		case *message.FileMention:
			return m.print(m.r.mention(msg))
		case *ai.AssistantMessage:
			m.live, m.st, m.textShown = msg, stream{}, false
		}
	case agent.MessageUpdate:
		m.live = e.Message
		return m.printPieces(m.st.advance(e.Message, false), "")
	case agent.MessageEnd:
		a, ok := e.Message.(*ai.AssistantMessage)
		if !ok {
			return nil
		}
		for _, c := range a.ToolCalls() {
			m.calls[c.ID] = c
		}
		cmd := m.printPieces(m.st.advance(a, true), m.r.stopNote(a))
		m.live, m.st = nil, stream{}
		m.status.cost += a.Usage.Cost.Total
		return cmd
	case agent.ToolExecutionStart:
		call := m.calls[e.ToolCallID]
		if call == nil {
			call = &ai.ToolCall{ID: e.ToolCallID, Name: e.ToolName, Arguments: e.Args}
			m.calls[e.ToolCallID] = call
		}
		m.tools[e.ToolCallID] = &liveTool{call: call}
		m.order = append(m.order, e.ToolCallID)
	case agent.ToolExecutionUpdate:
		if t := m.tools[e.ToolCallID]; t != nil && e.PartialResult != nil {
			t.partial, t.details = resultText(e.PartialResult.Content), e.PartialResult.Details
		}
	case agent.ToolExecutionEnd:
		t := m.tools[e.ToolCallID]
		delete(m.tools, e.ToolCallID)
		for i, id := range m.order {
			if id == e.ToolCallID {
				m.order = append(m.order[:i:i], m.order[i+1:]...)
				break
			}
		}
		call := &ai.ToolCall{ID: e.ToolCallID, Name: e.ToolName}
		if t != nil {
			call = t.call
		}
		var content []ai.Content
		var details any
		if e.Result != nil {
			content, details = e.Result.Content, e.Result.Details
		}
		cmd := m.print(m.r.card(call, content, details, e.IsError))
		m.lastCard = true
		return cmd
	case agent.AutoRetryStart:
		m.setNotice(fmt.Sprintf(retryNotice+" %.0fs (attempt %d of %d): %s", float64(e.DelayMs)/1000, e.Attempt, e.MaxAttempts, e.ErrorMessage))
	case agent.AutoRetryEnd:
		switch {
		case !e.Success && e.FinalError != "":
			m.setNotice("Retries gave up: " + e.FinalError)
		case strings.HasPrefix(m.notice, retryNotice):
			m.notice = "" // the retry worked: its notice has done its job
		}
	case agent.HookError:
		return m.printSection(m.r.errorLine(fmt.Sprintf("hook %s (%s): %s", e.Hook, e.Event, e.Error)))
	case agentsession.AutoCompactionStart:
		m.busy = "Compacting the conversation (" + e.Reason + ")…"
		return m.tick()
	case agentsession.AutoCompactionEnd:
		m.busy = ""
		switch {
		case e.ErrorMessage != "":
			return m.printSection(m.r.errorLine(e.ErrorMessage))
		case e.Aborted:
			return m.printSection(m.r.notice("Compaction cancelled"))
		case e.Result != nil:
			return tea.Batch(m.printSection(m.r.marker("compacted: "+strconv.Itoa(e.Result.TokensBefore)+" tokens summarised")), m.refreshStatus())
		}
	case agentsession.TTSRTriggered:
		what := "the answer was stopped and asked again with rule "
		if !e.Interrupted {
			what = "rule sent after the turn: "
		}
		return m.printSection(m.r.marker(what + strings.Join(e.Rules, ", ")))
	case agentsession.PlanModeChanged, agentsession.PlanReview:
		return m.onPlanEvent(e)
	case agentsession.MemoryWriteFailed:
		return m.printSection(m.r.warning("Memory not saved: " + e.Error))
	case agentsession.TodoReminder, agentsession.TodoAutoClear:
		// The todo list is in the transcript through the tool's results.
	}
	return nil
}

// printPieces renders and prints the complete parts of a streamed
// answer, then note (why it stopped) when there is one.
func (m *model) printPieces(ps []piece, note string) tea.Cmd {
	var blocks []string
	for _, p := range ps {
		if p.thinking {
			blocks = append(blocks, m.r.thinking(p.text, m.expand))
			continue
		}
		b := m.r.markdown(p.text)
		if b == "" {
			continue
		}
		if m.textShown {
			// Pieces are cut at blank lines: put the blank line back.
			b = "\n" + b
		}
		m.textShown = true
		blocks = append(blocks, b)
	}
	nonblank := false
	for _, b := range blocks {
		nonblank = nonblank || b != ""
	}
	if nonblank && m.lastCard {
		m.gap = true // the answer after tool cards starts a new section
	}
	cmd := m.print(append(blocks, note)...)
	if nonblank {
		m.lastCard = false
	}
	return cmd
}

// scheduleIdle arms idle compaction after a run: when the session is due
// for it (compaction.idleEnabled, a large enough context), it runs once
// the user has done nothing for compaction.idleTimeoutSeconds.
func (m *model) scheduleIdle() tea.Cmd {
	s, gen := m.s, m.activity
	return func() tea.Msg {
		wait, due := s.Compactor().IdleDue()
		if !due {
			return nil
		}
		return tea.Tick(wait, func(time.Time) tea.Msg { return idleMsg{gen} })()
	}
}
