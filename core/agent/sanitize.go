package agent

import (
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// MissingResultText is the tool result the loop supplies for a call that has
// none in the history (the process died while the tool ran, or the history
// was edited), since providers refuse a call without a result.
const MissingResultText = "No result was recorded for this tool call (the session ended before it finished)."

// providerMessages makes a converted history safe to send, whatever wrote
// it (this process, an older gopi, omp, a hand edit). Providers refuse a
// tool call without exactly one result right after its assistant message,
// a result that answers no call, and two calls with the same id; so:
//
//   - a failed or aborted assistant message directly followed by another
//     assistant message was retried (or recovered from) and replaced by
//     it: it is not sent, as it was not during the run;
//   - a tool result answers the nearest assistant message before it that
//     made the call (a session may hold several calls with one id);
//   - of another failed or aborted assistant message, the text and the
//     calls that have a result are sent, and nothing when that is empty
//     (its thinking signatures are incomplete, providers reject them);
//   - every call sent is followed, in call order right after its
//     assistant message, by exactly one result: the first recorded one,
//     else MissingResultText; other results are dropped;
//   - a call whose id an earlier call sent already used gets a new id
//     (its result goes with it); for OpenAI Responses ids only the call
//     part counts, as that is what is sent.
//
// Messages of other roles pass unchanged, in order. The input is not
// modified; messages that need no change are passed through as they are.
func providerMessages(in []ai.Message) []ai.Message {
	superseded := func(i int) bool {
		m, ok := in[i].(*ai.AssistantMessage)
		if !ok || !failed(m) || i+1 >= len(in) {
			return false
		}
		_, next := in[i+1].(*ai.AssistantMessage)
		return next
	}
	// Which assistant message each result answers: the latest one before
	// it that made the call (and is sent).
	owner := map[string]int{} // call id → index of the latest message making it
	answers := recorded{first: map[answerKey]*ai.ToolResultMessage{}}
	for i, m := range in {
		switch m := m.(type) {
		case *ai.AssistantMessage:
			if superseded(i) {
				continue
			}
			for _, b := range m.Content {
				if tc, ok := b.(*ai.ToolCall); ok {
					owner[tc.ID] = i
				}
			}
		case *ai.ToolResultMessage:
			if i, ok := owner[m.ToolCallID]; ok {
				answers.add(answerKey{i, m.ToolCallID}, m)
			} // else it answers no call: dropped
		}
	}

	out := make([]ai.Message, 0, len(in))
	used := map[string]bool{} // call ids sent so far (their call part)
	for i, m := range in {
		switch m := m.(type) {
		case *ai.AssistantMessage:
			if superseded(i) {
				continue
			}
			results := messageResults{&answers, i}
			if failed(m) {
				if m = keptPartOfFailed(m, results); m == nil {
					continue
				}
			}
			out = pairCalls(out, m, results, used)
		case *ai.ToolResultMessage:
			// Sent right after the call it answers (above), or dropped.
		default:
			out = append(out, m)
		}
	}
	return out
}

// answerKey names the results of one call id of one assistant message
// (its index in the history).
type answerKey struct {
	msg int
	id  string
}

// recorded holds the results of the history by answerKey: the first one
// of each, and the others of a key that has several.
type recorded struct {
	first map[answerKey]*ai.ToolResultMessage
	more  map[answerKey][]*ai.ToolResultMessage
}

func (r *recorded) add(k answerKey, m *ai.ToolResultMessage) {
	if _, ok := r.first[k]; !ok {
		r.first[k] = m
		return
	}
	if r.more == nil {
		r.more = map[answerKey][]*ai.ToolResultMessage{}
	}
	r.more[k] = append(r.more[k], m)
}

// messageResults are the results recorded for one assistant message.
type messageResults struct {
	all *recorded
	msg int
}

// nth returns the n-th result (from 0) recorded for call id, or nil.
func (r messageResults) nth(id string, n int) *ai.ToolResultMessage {
	k := answerKey{r.msg, id}
	if n == 0 {
		return r.all.first[k]
	}
	if more := r.all.more[k]; n-1 < len(more) {
		return more[n-1]
	}
	return nil
}

// failed reports whether an assistant message failed or was aborted.
func failed(m *ai.AssistantMessage) bool {
	return m.StopReason == ai.StopReasonError || m.StopReason == ai.StopReasonAborted
}

// pairCalls appends to dst m as it is sent (a copy when a call needs a
// new id) and one result for each of its calls, in call order: the next
// unused one recorded for the call's id, else MissingResultText. used
// holds the call ids sent before m and gets m's.
func pairCalls(dst []ai.Message, m *ai.AssistantMessage, results messageResults, used map[string]bool) []ai.Message {
	at := len(dst)
	dst = append(dst, m)
	var copied *ai.AssistantMessage // m with new ids, once one is needed
	for i, b := range m.Content {
		tc, ok := b.(*ai.ToolCall)
		if !ok {
			continue
		}
		// The n-th call with an id in m takes the n-th result of that id.
		n := 0
		for _, e := range m.Content[:i] {
			if p, ok := e.(*ai.ToolCall); ok && p.ID == tc.ID {
				n++
			}
		}
		res := results.nth(tc.ID, n)
		id := tc.ID
		if used[callPart(id)] {
			id = freshID(id, used)
			if copied == nil {
				c := *m
				c.Content = append(ai.ContentList(nil), m.Content...)
				copied = &c
				dst[at] = copied
			}
			renamed := *tc
			renamed.ID = id
			copied.Content[i] = &renamed
		}
		used[callPart(id)] = true
		switch {
		case res == nil:
			res = &ai.ToolResultMessage{ToolCallID: id, ToolName: tc.Name, Content: ai.ContentList{ai.Text(MissingResultText)}, IsError: true, Timestamp: m.Timestamp}
		case res.ToolCallID != id:
			c := *res
			c.ToolCallID = id
			res = &c
		}
		dst = append(dst, res)
	}
	return dst
}

// callPart returns the part of a call id providers compare: an OpenAI
// Responses id "<call_id>|<item_id>" is sent as its call id (see
// ai.ToolCall.ID), so two calls that differ only in the item part collide.
func callPart(id string) string {
	call, _, _ := strings.Cut(id, "|")
	return call
}

// freshID returns an id no call sent so far has, made from id: a short
// prefix in front of its call part (the item part is left out, as the
// item it names was already sent), so that providers that shorten ids
// keep the difference.
func freshID(id string, used map[string]bool) string {
	call := callPart(id)
	for n := 2; ; n++ {
		c := "r" + strconv.Itoa(n) + "_" + call
		if !used[c] {
			return c
		}
	}
}

// keptPartOfFailed returns what of a failed or aborted assistant message is
// worth sending: its text and the calls that have results, or nil when
// nothing is left.
func keptPartOfFailed(m *ai.AssistantMessage, results messageResults) *ai.AssistantMessage {
	var kept ai.ContentList
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextContent:
			if b.Text != "" {
				kept = append(kept, b)
			}
		case *ai.ThinkingContent:
			// Signatures of an interrupted stream are incomplete; providers
			// reject them. Drop thinking of failed messages.
		case *ai.ToolCall:
			if results.nth(b.ID, 0) != nil {
				kept = append(kept, b)
			}
		}
	}
	if len(kept) == 0 {
		return nil
	}
	c := *m
	c.Content = kept
	return &c
}
