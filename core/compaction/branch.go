package compaction

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
)

// Branch summaries. Navigating the session tree (/tree) moves the leaf to
// another entry; the entries between the old leaf and the point where the
// two paths meet leave the context. With a branch summary they are
// summarised by the model first, and the summary is stored as a
// branch_summary entry at the new position, so the conversation goes on
// knowing what was tried on the branch it left.

// PurposeBranch is the Purpose of a branch summary request.
const PurposeBranch = "branch"

// Defaults of the branchSummary.* settings.
const (
	DefaultBranchReserveTokens = 16384  // branchSummary.reserveTokens
	defaultContextWindow       = 128000 // a model whose window is unknown
	branchMaxTokens            = 2048   // output budget of a branch summary
)

// BranchSettings are the branchSummary.* settings.
type BranchSettings struct {
	Enabled       bool // branchSummary.enabled: front ends offer to summarise the branch /tree leaves (default false)
	ReserveTokens int  // branchSummary.reserveTokens: room kept for the prompt and the answer (default 16384)
}

// Budget returns how many tokens of the branch a summary request may
// carry: the model's context window (128,000 when unknown) less the
// reserve.
func (s BranchSettings) Budget(contextWindow int) int {
	if contextWindow <= 0 {
		contextWindow = defaultContextWindow
	}
	reserve := s.ReserveTokens
	if reserve <= 0 {
		reserve = DefaultBranchReserveTokens
	}
	return max(1, contextWindow-reserve)
}

// CollectBranch returns the entries a move of the leaf leaves behind:
// those on oldPath (root first, ending at the old leaf) after the deepest
// entry it shares with targetPath (root first, ending at the target),
// oldest first, and that shared entry's id ("" when the paths share
// nothing). Compactions and earlier branch summaries on the way are
// included: their summaries stand for what they replaced.
func CollectBranch(oldPath, targetPath []*session.Entry) (entries []*session.Entry, commonAncestorID string) {
	onOld := make(map[string]int, len(oldPath))
	for i, e := range oldPath {
		onOld[e.ID] = i
	}
	from := 0
	for i := len(targetPath) - 1; i >= 0; i-- {
		if j, ok := onOld[targetPath[i].ID]; ok {
			commonAncestorID, from = targetPath[i].ID, j+1
			break
		}
	}
	return append([]*session.Entry(nil), oldPath[from:]...), commonAncestorID
}

// BranchPreparation is what a branch summary is written from.
type BranchPreparation struct {
	Messages []ai.Message // the newest messages of the branch that fit the budget, oldest first
	FileOps  *FileOps     // files the whole branch read and changed (and earlier branch summaries recorded)
	Tokens   int          // estimated tokens of Messages
}

// PrepareBranch picks the messages of a branch (entries oldest first) for
// its summary, newest first until budget tokens are reached (budget ≤ 0:
// no limit): tool results are left out (the calls say what was done), a
// compaction or branch summary that does not fit is still taken while
// less than 90% of the budget is used, since it stands for much. Files are
// collected from the whole branch, including the details of earlier
// branch summaries gopi or omp wrote (not an extension's).
func PrepareBranch(entries []*session.Entry, budget int, c *Counter) *BranchPreparation {
	p := &BranchPreparation{FileOps: NewFileOps()}
	for _, e := range entries {
		if bs := e.BranchSummary; bs != nil && !bs.FromExtension {
			p.FileOps.addDetails(bs.Details)
		}
		if e.Type == session.TypeMessage {
			p.FileOps.AddMessage(e.Message)
		}
	}
	var picked []ai.Message
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		m := branchMessage(e)
		if m == nil {
			continue
		}
		n := c.Count(m)
		if budget > 0 && p.Tokens+n > budget {
			summary := e.Type == session.TypeCompaction || e.Type == session.TypeBranchSummary
			if summary && float64(p.Tokens) < 0.9*float64(budget) {
				picked = append(picked, m)
				p.Tokens += n
			}
			break
		}
		picked = append(picked, m)
		p.Tokens += n
	}
	for i := len(picked) - 1; i >= 0; i-- {
		p.Messages = append(p.Messages, picked[i])
	}
	return p
}

// branchMessage returns what an entry contributes to a branch summary's
// transcript: messages except tool results, custom messages, and the
// summaries of compactions and branch summaries.
func branchMessage(e *session.Entry) ai.Message {
	if e.Type == session.TypeMessage {
		if _, ok := e.Message.(*ai.ToolResultMessage); ok {
			return nil
		}
		return e.Message
	}
	if c := e.Compaction; c != nil {
		return &message.CompactionSummary{Summary: c.Summary, ShortSummary: c.ShortSummary, TokensBefore: c.TokensBefore, Timestamp: millis(e.Timestamp)}
	}
	return entryMessage(e)
}

// BranchOptions refine GenerateBranchSummary.
type BranchOptions struct {
	// CustomInstructions replace the default instructions (a user's own
	// prompt for the summary).
	CustomInstructions string
}

// BranchResult is a written branch summary, ready to be stored as a
// branch_summary entry.
type BranchResult struct {
	Summary string  // the summary: a preamble, the model's notes, the file tags
	Details Details // the files read and changed, stored as the entry's details
}

// ErrEmptySummary: the model answered a summary request with no text.
var ErrEmptySummary = errors.New("the model wrote an empty summary")

// GenerateBranchSummary writes the summary of a prepared branch through
// sum. A branch without messages gets a fixed text and no request. The
// summary starts with a preamble saying it is about a branch that was
// left, and ends with the <read-files> / <modified-files> tags. A failed,
// aborted or empty answer is an error (ctx's error when ctx ended it).
func GenerateBranchSummary(ctx context.Context, p *BranchPreparation, sum Summarizer, opts BranchOptions) (*BranchResult, error) {
	details := p.FileOps.Lists()
	if len(p.Messages) == 0 {
		return &BranchResult{Summary: emptyBranch, Details: details}, nil
	}
	instructions := branchInstructions
	if strings.TrimSpace(opts.CustomInstructions) != "" {
		instructions = opts.CustomInstructions
	}
	text, err := sum(ctx, SummaryRequest{Purpose: PurposeBranch, SystemPrompt: SystemPrompt,
		Prompt: promptText(Serialize(p.Messages), "", nil, instructions), MaxTokens: branchMaxTokens})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("Branch summarization failed: %w", err)
	}
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("Branch summarization failed: %w", ErrEmptySummary)
	}
	return &BranchResult{Summary: WithFileTags(branchPreamble+strings.TrimSpace(text), details), Details: details}, nil
}
