package hindsight

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Message is one plain-text turn of the conversation as the backend sees
// it: the user's or the assistant's words, without tool calls, results
// or thinking.
type Message struct {
	Role    string // "user" or "assistant"
	Content string
}

// memoryBlocks match the blocks the backend puts into the model's
// context (and the older names of the first), so they are never
// retained as new memories: a recalled memory written back would feed
// on itself.
var memoryBlocks = []*regexp.Regexp{
	regexp.MustCompile(`(?s)<memories>.*?</memories>`),
	regexp.MustCompile(`(?s)<mental_models>.*?</mental_models>`),
	regexp.MustCompile(`(?s)<hindsight_memories>.*?</hindsight_memories>`),
	regexp.MustCompile(`(?s)<relevant_memories>.*?</relevant_memories>`),
}

// StripBlocks removes the <memories> and <mental_models> blocks (and
// the legacy <hindsight_memories> and <relevant_memories>) from text.
func StripBlocks(text string) string {
	for _, re := range memoryBlocks {
		text = re.ReplaceAllString(text, "")
	}
	return text
}

// formatMemories renders recalled memories as a bullet list, blank lines
// between items: "- text [type] (mentioned at)".
func formatMemories(mems []Memory) string {
	lines := make([]string, len(mems))
	for i, m := range mems {
		l := "- " + m.Text
		if m.Type != "" {
			l += " [" + m.Type + "]"
		}
		if m.MentionedAt != "" {
			l += " (" + m.MentionedAt + ")"
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n\n")
}

// recallCharsPerToken turns recall's token budget (hindsight.recallMaxTokens)
// into the characters of memories the model is given at most: twice the
// usual four per token, so that a server keeping to the budget is never
// cut and one ignoring it cannot flood every request.
const recallCharsPerToken = 8

// defaultRecallTokens is the budget when none is configured.
const defaultRecallTokens = 1024

// boundMemories keeps the memories, in the server's order, that fit in
// maxTokens' worth of characters (the first is kept, cut, even when it
// alone is longer), and says how many were left out.
func boundMemories(mems []Memory, maxTokens int) ([]Memory, int) {
	if maxTokens <= 0 {
		maxTokens = defaultRecallTokens
	}
	room := recallCharsPerToken * maxTokens
	for i, m := range mems {
		n := len(m.Text) + len(m.Type) + len(m.MentionedAt) + 8
		if n <= room {
			room -= n
			continue
		}
		if i == 0 {
			first := m
			first.Text = cutBytes(m.Text, room) + "…"
			return []Memory{first}, len(mems) - 1
		}
		return mems[:i], len(mems) - i
	}
	return mems, 0
}

// utcMinute is the time format of the recall texts.
func utcMinute(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") }

// recallPreamble opens the <memories> block the model is given.
const recallPreamble = "Memories from earlier sessions that may bear on this one (when two disagree, trust the newer). Use the ones that help with the conversation at hand and ignore the others:"

// memoriesBlock wraps recalled memories for the model's context, bounded
// by the recall budget (boundMemories).
func memoriesBlock(mems []Memory, maxTokens int, now time.Time) string {
	kept, left := boundMemories(mems, maxTokens)
	body := formatMemories(kept)
	if left > 0 {
		body += fmt.Sprintf("\n\n(%d more memories left out: over hindsight.recallMaxTokens)", left)
	}
	return fmt.Sprintf("<memories>\n%s\nCurrent time: %s UTC\n\n%s\n</memories>", recallPreamble, utcMinute(now), body)
}

// LastTurns returns the tail of msgs that holds its last n user turns
// (from the n-th user message from the end); all of msgs when it has
// fewer, none when n < 1.
func LastTurns(msgs []Message, n int) []Message {
	if n < 1 || len(msgs) == 0 {
		return nil
	}
	seen := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			if seen++; seen == n {
				return msgs[i:]
			}
		}
	}
	return msgs
}

// contextHeading starts the earlier turns of a recall query.
const contextHeading = "Prior context:"

// RecallQuery builds the auto-recall query for the latest prompt: the
// prompt alone when turns ≤ 1, else the last turns of history (memory
// blocks removed, the prompt itself not repeated) as "role: text" lines
// under a heading, then the prompt. A query over maxChars (0: no bound)
// drops its oldest lines first and always keeps the prompt, cut to
// maxChars when it alone is too long.
func RecallQuery(prompt string, history []Message, turns, maxChars int) string {
	latest := strings.TrimSpace(prompt)
	var lines []string
	if turns > 1 {
		for _, m := range LastTurns(history, turns) {
			c := strings.TrimSpace(StripBlocks(m.Content))
			if c == "" || (m.Role == "user" && c == latest) {
				continue
			}
			// one line per message: the cut below drops whole lines
			lines = append(lines, m.Role+": "+strings.Join(strings.Fields(c), " "))
		}
	}
	build := func(ls []string) string {
		if len(ls) == 0 {
			return latest
		}
		return contextHeading + "\n\n" + strings.Join(ls, "\n") + "\n\n" + latest
	}
	q := build(lines)
	if maxChars <= 0 || len(q) <= maxChars {
		return q
	}
	for len(lines) > 0 {
		lines = lines[1:]
		if q = build(lines); len(lines) > 0 && len(q) <= maxChars {
			return q
		}
	}
	return cutBytes(latest, maxChars)
}

// cutBytes cuts s to at most n bytes without splitting a character.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// Transcript renders msgs for retention: each message framed by
// "[role: R]" and "[R:end]" lines, memory blocks removed, empty ones
// left out; "" when nothing of substance (10 characters) is left.
func Transcript(msgs []Message) string {
	var parts []string
	for _, m := range msgs {
		c := strings.TrimSpace(StripBlocks(m.Content))
		if c == "" {
			continue
		}
		parts = append(parts, fmt.Sprintf("[role: %s]\n%s\n[%s:end]", m.Role, c, m.Role))
	}
	t := strings.Join(parts, "\n\n")
	if len(strings.TrimSpace(t)) < 10 {
		return ""
	}
	return t
}
