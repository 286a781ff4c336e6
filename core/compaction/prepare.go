package compaction

import (
	"encoding/json"
	"errors"
	"math"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
)

// Reasons Prepare finds nothing to do; their texts are what the user is
// told (omp's wording).
var (
	// ErrAlreadyCompacted: the newest entry is a compaction.
	ErrAlreadyCompacted = errors.New("Already compacted")
	// ErrTooSmall: everything since the last compaction fits in the part
	// that is kept verbatim.
	ErrTooSmall = errors.New("Nothing to compact (session too small)")
)

// Preparation is a planned compaction: what is summarised, what is kept,
// and what the summary builds on. Hooks see it before the model is asked.
type Preparation struct {
	FirstKeptEntryID    string         // first entry kept verbatim
	MessagesToSummarize []ai.Message   // the older history, replaced by the summary
	TurnPrefixMessages  []ai.Message   // the start of a split turn, summarised on its own
	RecentMessages      []ai.Message   // the messages kept verbatim
	SplitTurn           bool           // the cut falls inside a turn
	TokensBefore        int            // context tokens of the last response before compacting (0 when unknown)
	PreviousSummary     string         // the previous compaction's summary, updated rather than rewritten
	PreviousPreserve    map[string]any // the previous compaction's preserveData
	FileOps             *FileOps       // files read and changed in the summarised part (and carried over)
	Settings            Settings       // the settings it was prepared with
}

// windowExactBytes is how much of the newest text Prepare counts exactly
// when sizing the whole range for the keep-budget ratio; older text is
// counted by extrapolation (see windowTokens).
const windowExactBytes = 1 << 20

// Prepare plans the compaction of a session path (root first, the leaf
// last). It returns ErrAlreadyCompacted when the leaf is a compaction and
// ErrTooSmall when nothing would be summarised.
func Prepare(path []*session.Entry, s Settings, c *Counter) (*Preparation, error) {
	if len(path) == 0 {
		return nil, ErrTooSmall
	}
	if path[len(path)-1].Type == session.TypeCompaction {
		return nil, ErrAlreadyCompacted
	}
	prev := -1
	for i := len(path) - 1; i >= 0; i-- {
		if path[i].Type == session.TypeCompaction {
			prev = i
			break
		}
	}
	start, end := prev+1, len(path)

	keep := s.KeepRecentTokens
	if keep <= 0 {
		keep = DefaultKeepRecentTokens
	}
	var last *ai.Usage
	for i := len(path) - 1; i >= 0; i-- {
		if path[i].Type != session.TypeMessage {
			continue
		}
		if u, ok := UsableUsage(path[i].Message); ok {
			last = &u
			break
		}
	}
	tokensBefore := 0
	if last != nil {
		tokensBefore = ContextTokens(*last)
		// Our estimate runs below what the provider counts (system prompt,
		// tool definitions, its own tokenizer): keep proportionally less.
		if est := windowTokens(path, start, end, c); est > 0 {
			if ratio := float64(PromptTokens(*last)) / float64(est); ratio > 1 && !math.IsInf(ratio, 0) {
				keep = max(1, int(math.Floor(float64(keep)/ratio)))
			}
		}
	}

	cp := FindCutPoint(path, start, end, keep, c)
	first := path[cp.FirstKept]
	if first.ID == "" {
		return nil, errors.New("the first kept entry has no id: the session file needs migrating (open it once with gopi or omp)")
	}
	historyEnd := cp.FirstKept
	if cp.SplitTurn {
		historyEnd = cp.TurnStart
	}
	p := &Preparation{FirstKeptEntryID: first.ID, SplitTurn: cp.SplitTurn, TokensBefore: tokensBefore, Settings: s}
	p.MessagesToSummarize = append(previouslyKept(path, prev), messagesOf(path[start:historyEnd])...)
	if cp.SplitTurn {
		p.TurnPrefixMessages = messagesOf(path[cp.TurnStart:cp.FirstKept])
	}
	p.RecentMessages = messagesOf(path[cp.FirstKept:end])
	if len(p.MessagesToSummarize) == 0 && len(p.TurnPrefixMessages) == 0 {
		return nil, ErrTooSmall
	}

	p.FileOps = NewFileOps()
	if prev >= 0 {
		pc := path[prev].Compaction
		p.PreviousSummary = pc.Summary
		if len(pc.PreserveData) > 0 {
			_ = json.Unmarshal(pc.PreserveData, &p.PreviousPreserve)
		}
		if !pc.FromExtension {
			p.FileOps.addDetails(pc.Details)
		}
	}
	for _, m := range p.MessagesToSummarize {
		p.FileOps.AddMessage(m)
	}
	for _, m := range p.TurnPrefixMessages {
		p.FileOps.AddMessage(m)
	}
	return p, nil
}

// previouslyKept returns the messages the compaction at path[prev] kept
// verbatim (from its firstKeptEntryId up to it). The new cut always falls
// after that compaction, so they leave the context now: they are
// summarised with the rest. (omp summarises only the entries after the
// previous compaction, and so loses them.) None when there is no previous
// compaction, or when it carries a provider's replacement history, which
// stood for them.
func previouslyKept(path []*session.Entry, prev int) []ai.Message {
	if prev < 0 {
		return nil
	}
	c := path[prev].Compaction
	if replacesKept(c) {
		return nil
	}
	for i := prev - 1; i >= 0; i-- {
		if path[i].ID == c.FirstKeptEntryID {
			return messagesOf(path[i:prev])
		}
		if path[i].Type == session.TypeCompaction {
			break // the kept part never reaches back past the compaction before
		}
	}
	return nil
}

// replacesKept reports whether a compaction carries a provider's
// replacement history (omp's OpenAI remote compaction), which the model is
// sent instead of the entries the compaction kept.
func replacesKept(c *session.Compaction) bool {
	var preserve map[string]json.RawMessage
	return json.Unmarshal(c.PreserveData, &preserve) == nil && preserve[remoteCompactionKey] != nil
}

// messagesOf returns the messages entries contribute to the context, as
// session.BuildContext makes them.
func messagesOf(entries []*session.Entry) []ai.Message {
	var out []ai.Message
	for _, e := range entries {
		if m := entryMessage(e); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// entryMessage returns the message an entry puts in the context, or nil.
func entryMessage(e *session.Entry) ai.Message {
	switch {
	case e.Type == session.TypeMessage:
		return e.Message
	case e.CustomMessage != nil:
		cm := e.CustomMessage
		return &message.Custom{CustomType: cm.CustomType, Content: cm.Content, Display: cm.Display, Details: cm.Details,
			Attribution: cm.Attribution, Timestamp: millis(e.Timestamp)}
	case e.BranchSummary != nil && e.BranchSummary.Summary != "":
		return &message.BranchSummary{Summary: e.BranchSummary.Summary, FromID: e.BranchSummary.FromID, Timestamp: millis(e.Timestamp)}
	}
	return nil
}

// windowTokens estimates the tokens of the messages in entries[start:end]:
// the newest windowExactBytes of text are counted exactly, the older text
// at the same tokens per byte (a session of thousands of entries is sized
// in the time its newest megabyte takes to count).
func windowTokens(entries []*session.Entry, start, end int, c *Counter) int {
	exact, exactBytes, exactImages, restBytes, images := 0, 0, 0, 0, 0
	for i := end - 1; i >= start; i-- {
		e := entries[i]
		if e.Type != session.TypeMessage {
			continue
		}
		if exactBytes < windowExactBytes {
			exact += c.Count(e.Message)
			exactBytes += Size(e.Message)
			exactImages += imageCount(e.Message)
			continue
		}
		restBytes += Size(e.Message)
		images += imageCount(e.Message)
	}
	if restBytes == 0 {
		return exact
	}
	perByte := 0.25
	if text := exact - exactImages*imageTokens; exactBytes > 0 && text > 0 {
		perByte = float64(text) / float64(exactBytes)
	}
	return exact + int(float64(restBytes)*perByte) + images*imageTokens
}

// millis converts an entry timestamp to Unix milliseconds (0 when invalid).
func millis(ts string) int64 {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

func imageCount(m ai.Message) int {
	var list ai.ContentList
	switch m := m.(type) {
	case *ai.UserMessage:
		list = m.Content
	case *ai.ToolResultMessage:
		list = m.Content
	case *message.Custom:
		list = m.Content.Blocks
	}
	n := 0
	for _, b := range list {
		if _, ok := b.(*ai.ImageContent); ok {
			n++
		}
	}
	return n
}
