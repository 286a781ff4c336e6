package compaction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Purposes of a SummaryRequest.
const (
	PurposeHistory    = "history"     // the summary that replaces the older history
	PurposeTurnPrefix = "turn-prefix" // the summary of the start of a split turn
	PurposeShort      = "short"       // the two- or three-sentence recap
)

// SummaryRequest is one request to the summarising model.
type SummaryRequest struct {
	Purpose      string // PurposeHistory, PurposeTurnPrefix or PurposeShort
	SystemPrompt string // always SystemPrompt
	Prompt       string // the user message: transcript, previous summary, context, instructions
	MaxTokens    int    // output budget
}

// Summarizer sends a summary request to a model and returns the text of
// its answer; a failed or aborted request is an error (ctx's error when
// ctx ended it).
type Summarizer func(ctx context.Context, req SummaryRequest) (string, error)

// Options refine Generate.
type Options struct {
	// CustomInstructions are the user's (/compact text): what the history
	// summary should focus on.
	CustomInstructions string
	// Prompt replaces the history summary instructions (a hook's).
	Prompt string
	// ExtraContext lines go into <additional-context> (hooks').
	ExtraContext []string
	// PreserveData is merged over the previous compaction's into the
	// result (hooks' data kept on the entry).
	PreserveData map[string]any
}

// Result is a finished compaction, ready to be stored as an entry. Its
// JSON is omp's CompactionResult (the data of RPC compact's response).
type Result struct {
	Summary          string         // the summary, file tags included
	ShortSummary     string         // the recap; "" when none
	FirstKeptEntryID string         // first entry kept verbatim
	TokensBefore     int            // context tokens before compacting
	Details          any            // Details for generated summaries; an extension's own data otherwise
	PreserveData     map[string]any // data kept on the entry; nil leaves it out, empty is written {}
}

// MarshalJSON encodes {"summary","shortSummary"?,"firstKeptEntryId","tokensBefore","details"?,"preserveData"?}.
func (r Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Summary          string         `json:"summary"`
		ShortSummary     string         `json:"shortSummary,omitempty"`
		FirstKeptEntryID string         `json:"firstKeptEntryId"`
		TokensBefore     int            `json:"tokensBefore"`
		Details          any            `json:"details,omitempty"`
		PreserveData     map[string]any `json:"preserveData"`
	}{r.Summary, r.ShortSummary, r.FirstKeptEntryID, r.TokensBefore, r.Details, r.PreserveData})
}

// UnmarshalJSON decodes a compaction result (from an extension).
func (r *Result) UnmarshalJSON(data []byte) error {
	var v struct {
		Summary          string          `json:"summary"`
		ShortSummary     string          `json:"shortSummary"`
		FirstKeptEntryID string          `json:"firstKeptEntryId"`
		TokensBefore     int             `json:"tokensBefore"`
		Details          json.RawMessage `json:"details"`
		PreserveData     map[string]any  `json:"preserveData"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("decode compaction result: %w", err)
	}
	*r = Result{Summary: v.Summary, ShortSummary: v.ShortSummary, FirstKeptEntryID: v.FirstKeptEntryID, TokensBefore: v.TokensBefore, PreserveData: v.PreserveData}
	if len(v.Details) > 0 && string(v.Details) != "null" {
		r.Details = v.Details
	}
	return nil
}

// Output budgets, as shares of reserveTokens.
const (
	historyShare    = 0.8
	turnPrefixShare = 0.5
	shortShare      = 0.2
	shortMaxTokens  = 512
)

// errNoText is why a compaction fails when the model answered the history
// or turn-prefix request without any text (ErrEmptySummary): storing that
// would replace the history with nothing.
var errNoText = fmt.Errorf("%w, so nothing was compacted; try again, or switch to another model (an answer without text usually ran out of output tokens while thinking)", ErrEmptySummary)

// Generate writes the summaries of a prepared compaction through sum: the
// history summary (an update of the previous one when there is one) and,
// for a split turn, the turn-prefix summary in parallel; then the short
// recap of the kept messages. File tags are appended to the summary. A
// failed request, or a history or turn-prefix summary without text
// (ErrEmptySummary), fails the whole compaction with an error that says
// which summary failed; an empty recap is left out. Nothing is half done
// (Generate writes nothing itself).
func Generate(ctx context.Context, p *Preparation, sum Summarizer, opts Options) (*Result, error) {
	reserve := p.Settings.ReserveTokens
	if reserve <= 0 {
		reserve = DefaultReserveTokens
	}
	history := func(ctx context.Context) (string, error) {
		instructions := historyInstructions
		if p.PreviousSummary != "" {
			instructions = updateInstructions
		}
		if opts.Prompt != "" {
			instructions = opts.Prompt
		}
		if opts.CustomInstructions != "" {
			instructions += "\n\n" + focusLabel + opts.CustomInstructions
		}
		text, err := sum(ctx, SummaryRequest{Purpose: PurposeHistory, SystemPrompt: SystemPrompt,
			Prompt:    promptText(Serialize(p.MessagesToSummarize), p.PreviousSummary, opts.ExtraContext, instructions),
			MaxTokens: int(historyShare * float64(reserve))})
		if err != nil {
			return "", fmt.Errorf("Summarization failed: %w", err)
		}
		if strings.TrimSpace(text) == "" {
			return "", fmt.Errorf("Summarization failed: %w", errNoText)
		}
		return text, nil
	}

	var summary string
	switch {
	case p.SplitTurn && len(p.TurnPrefixMessages) > 0:
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var wg sync.WaitGroup
		var hist, prefix string
		var histErr, prefixErr error
		wg.Add(1)
		go func() {
			defer wg.Done()
			if len(p.MessagesToSummarize) == 0 {
				// Nothing new before the split turn: the previous summary
				// still stands (omp drops it here).
				hist = p.PreviousSummary
				if hist == "" {
					hist = noHistory
				}
				return
			}
			if hist, histErr = history(ctx); histErr != nil {
				cancel()
			}
		}()
		prefix, prefixErr = sum(ctx, SummaryRequest{Purpose: PurposeTurnPrefix, SystemPrompt: SystemPrompt,
			Prompt:    promptText(Serialize(p.TurnPrefixMessages), "", nil, turnPrefixInstructions),
			MaxTokens: int(turnPrefixShare * float64(reserve))})
		if prefixErr == nil && strings.TrimSpace(prefix) == "" {
			prefixErr = errNoText
		}
		if prefixErr != nil {
			cancel()
		}
		wg.Wait()
		// When one request failed, the other was cancelled: report the
		// failure, not the cancellation it caused.
		switch {
		case histErr != nil && !errors.Is(histErr, context.Canceled):
			return nil, histErr
		case prefixErr != nil && !errors.Is(prefixErr, context.Canceled):
			return nil, fmt.Errorf("Turn prefix summarization failed: %w", prefixErr)
		case histErr != nil:
			return nil, histErr
		case prefixErr != nil:
			return nil, fmt.Errorf("Turn prefix summarization failed: %w", prefixErr)
		}
		summary = hist + splitTurnHeading + prefix
	case len(p.MessagesToSummarize) > 0:
		var err error
		if summary, err = history(ctx); err != nil {
			return nil, err
		}
	case p.PreviousSummary != "":
		summary = p.PreviousSummary
	default:
		summary = noHistory
	}

	short, err := sum(ctx, SummaryRequest{Purpose: PurposeShort, SystemPrompt: SystemPrompt,
		Prompt:    promptText(Serialize(p.RecentMessages), summary, opts.ExtraContext, shortInstructions),
		MaxTokens: min(shortMaxTokens, int(shortShare*float64(reserve)))})
	if err != nil {
		return nil, fmt.Errorf("Short summary failed: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	details := p.FileOps.Lists()
	preserve := map[string]any{}
	for k, v := range p.PreviousPreserve {
		if k != remoteCompactionKey {
			preserve[k] = v
		}
	}
	for k, v := range opts.PreserveData {
		preserve[k] = v
	}
	return &Result{
		Summary:          WithFileTags(summary, details),
		ShortSummary:     strings.TrimSpace(short),
		FirstKeptEntryID: p.FirstKeptEntryID,
		TokensBefore:     p.TokensBefore,
		Details:          details,
		PreserveData:     preserve,
	}, nil
}

// remoteCompactionKey is the preserveData member of omp's OpenAI remote
// compaction (a provider's replacement history); a local summary drops it,
// since it no longer stands for the kept entries.
const remoteCompactionKey = "openaiRemoteCompaction"
