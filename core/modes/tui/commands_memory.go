package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/hindsight"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
)

// /memory shows and manages what the memory backend (memory.backend)
// gives the model, as omp's: view the text added to the system prompt,
// clear (or reset) the session's memory, enqueue (or rebuild) to write
// the conversation to the bank now, and mm … for the hindsight bank's
// mental models.

// memoryUsage is /memory's usage line.
const memoryUsage = "Usage: /memory <view|clear|reset|enqueue|rebuild|mm …>"

// memoryTimeout bounds one /memory request to the memory server.
const memoryTimeout = 30 * time.Second

// memoryMsg carries the outcome of a /memory request: a titled section,
// a notice or an error.
type memoryMsg struct {
	title, body string
	notice      string
	err         error
}

func (m *model) onMemory(msg memoryMsg) tea.Cmd {
	switch {
	case msg.err != nil:
		return m.printSection(m.r.errorLine(msg.err.Error()))
	case msg.title != "":
		return m.printSection(m.th.title.Render(msg.title), m.r.markdown(msg.body))
	}
	return m.printSection(m.r.notice(msg.notice))
}

// cmdMemory runs /memory.
func (m *model) cmdMemory(args string) tea.Cmd {
	fields := strings.Fields(args)
	sub := "view"
	if len(fields) > 0 {
		sub = strings.ToLower(fields[0])
	}
	backend := m.s.Config().Settings.String("memory.backend")
	auto := m.s.Conversation().Memory()
	switch sub {
	case "view", "clear", "reset", "enqueue", "rebuild", "mm":
	default:
		return m.printSection(m.r.errorLine(memoryUsage))
	}
	switch {
	case backend == config.MemoryLocal:
		return m.localMemory(sub)
	case auto == nil:
		return m.printSection(m.r.warning("The memory backend is off in this session, so nothing is added to the model's context; set memory.backend to hindsight (with hindsight.apiUrl) and start a new session"))
	}
	switch sub {
	case "view":
		return m.printSection(m.th.title.Render("Memory added to the system prompt"), m.r.markdown(auto.Instructions()))
	case "clear", "reset":
		auto.Clear()
		return m.printSection(m.r.notice("Memory cleared in this session: the recalled memories and mental models are gone from the system prompt and the next prompt recalls again. The bank on the Hindsight server is unchanged; delete it from Hindsight's UI to wipe it."))
	case "enqueue", "rebuild":
		ctx, msgs := m.ctx, agentsession.MemoryMessages(m.s.Messages())
		return m.busyCmd("Writing the conversation to memory…", func() tea.Msg {
			ctx, cancel := context.WithTimeout(ctx, memoryTimeout)
			defer cancel()
			if err := auto.RetainNow(ctx, msgs); err != nil {
				return memoryMsg{err: err}
			}
			return memoryMsg{notice: "Memory consolidation enqueued: the conversation was sent to the bank."}
		})
	}
	return m.mentalModels(auto, fields[1:])
}

// localMemory answers /memory for memory.backend=local: gopi reads the
// summary omp's local pipeline writes (memory://root) but does not run
// that pipeline.
func (m *model) localMemory(sub string) tea.Cmd {
	roots := config.MemoryRoots(m.s.Config().Dirs)
	switch sub {
	case "view":
		for _, r := range roots {
			if b, err := os.ReadFile(filepath.Join(r, "memory_summary.md")); err == nil && strings.TrimSpace(string(b)) != "" {
				return m.printSection(m.th.title.Render("Memory summary")+m.th.dim.Render("  ("+filepath.Join(r, "memory_summary.md")+")"), m.r.markdown(string(b)))
			}
		}
		return m.printSection(m.r.warning("No memory summary for this project (memory://root is empty): gopi reads the summaries omp's local memory writes and does not write them itself"))
	case "clear", "reset":
		if err := os.RemoveAll(roots[0]); err != nil {
			return m.printSection(m.r.errorLine("Clearing the memory files failed: " + err.Error()))
		}
		return m.printSection(m.r.notice("Memory files of this project removed from " + roots[0] + " (omp's own directory is left as it is)"))
	}
	return m.printSection(m.r.warning("/memory " + sub + " needs omp's local memory pipeline, which gopi does not run; use memory.backend=hindsight for memory gopi writes"))
}

// mmUsage is /memory mm's usage line.
const mmUsage = "Usage: /memory mm <list|show|refresh|history|seed|reload|delete>"

// mentalModels runs /memory mm <verb> [id].
func (m *model) mentalModels(auto *hindsight.Auto, args []string) tea.Cmd {
	bank := auto.Bank()
	cfg := bank.Config()
	if !cfg.Models.Enabled {
		return m.printSection(m.r.errorLine("Mental models are off (hindsight.mentalModelsEnabled is false)"))
	}
	verb, id := "list", ""
	if len(args) > 0 {
		verb = strings.ToLower(args[0])
	}
	if len(args) > 1 {
		id = args[1]
	}
	switch verb {
	case "list", "refresh", "seed", "reload":
	case "show", "history", "delete", "remove":
		if id == "" {
			return m.printSection(m.r.errorLine("Usage: /memory mm " + verb + " <id>"))
		}
	default:
		return m.printSection(m.r.errorLine(mmUsage))
	}
	ctx, c, bankID := m.ctx, bank.Client(), bank.ID()
	return m.busyCmd("Asking the memory server…", func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, memoryTimeout)
		defer cancel()
		msg, err := runMentalModels(ctx, auto, c, bankID, cfg, verb, id)
		if err != nil {
			return memoryMsg{err: fmt.Errorf("mm %s failed: %w", verb, err)}
		}
		return msg
	})
}

// runMentalModels does one /memory mm verb against the server.
func runMentalModels(ctx context.Context, auto *hindsight.Auto, c *hindsight.Client, bank string, cfg config.Hindsight, verb, id string) (memoryMsg, error) {
	switch verb {
	case "list":
		ms, err := c.ListModels(ctx, bank, false)
		if err != nil || len(ms) == 0 {
			return memoryMsg{notice: "No mental models on bank " + bank + "."}, err
		}
		sort.Slice(ms, func(i, j int) bool { return ms[i].ID < ms[j].ID })
		lines := make([]string, len(ms))
		for i, mm := range ms {
			lines[i] = hindsight.ModelLine(mm)
		}
		return memoryMsg{title: "Mental models of " + bank, body: strings.Join(lines, "\n")}, nil
	case "show":
		mm, err := c.GetModel(ctx, bank, id)
		if err != nil || mm == nil {
			return memoryMsg{}, orNotFound(err, id)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "**id:** `%s`", mm.ID)
		if len(mm.Tags) > 0 {
			fmt.Fprintf(&b, "\n_tags: %s_", strings.Join(mm.Tags, ", "))
		}
		if mm.LastRefreshed != "" {
			fmt.Fprintf(&b, "\n_last refreshed: %s_", mm.LastRefreshed)
		}
		if mm.SourceQuery != "" {
			fmt.Fprintf(&b, "\n\n**Source query:** %s", mm.SourceQuery)
		}
		content := strings.TrimSpace(mm.Content)
		if content == "" {
			content = "_(no text yet: the server may still be writing it)_"
		}
		b.WriteString("\n\n" + content)
		return memoryMsg{title: mm.Name, body: b.String()}, nil
	case "refresh":
		n, skipped := 0, 0
		if id != "" {
			if err := c.RefreshModel(ctx, bank, id); err != nil {
				return memoryMsg{}, err
			}
			n = 1
		} else {
			ms, err := c.ListModels(ctx, bank, true)
			if err != nil {
				return memoryMsg{}, err
			}
			for _, mm := range ms {
				// a bulk refresh leaves the hand-curated models alone
				if mm.Trigger == nil || !mm.Trigger.RefreshAfterConsolidation {
					skipped++
					continue
				}
				if err := c.RefreshModel(ctx, bank, mm.ID); err != nil {
					return memoryMsg{}, err
				}
				n++
			}
		}
		_ = auto.ReloadModels(ctx)
		text := fmt.Sprintf("Refresh asked for %d mental model(s)", n)
		if skipped > 0 {
			text += fmt.Sprintf("; %d curated model(s) left alone (name one to refresh it)", skipped)
		}
		return memoryMsg{notice: text + "."}, nil
	case "seed":
		seeds := hindsight.Seeds(cfg.Scoping, cfg.RetainTags)
		if len(seeds) == 0 {
			return memoryMsg{notice: "No built-in mental models apply to scoping " + cfg.Scoping + "."}, nil
		}
		made, err := c.Seed(ctx, bank, seeds)
		if err != nil {
			return memoryMsg{}, err
		}
		_ = auto.ReloadModels(ctx)
		return memoryMsg{notice: fmt.Sprintf("Created %d of %d built-in mental models (%d were already there).", made, len(seeds), len(seeds)-made)}, nil
	case "reload":
		if err := auto.ReloadModels(ctx); err != nil {
			return memoryMsg{}, err
		}
		return memoryMsg{notice: "Mental models reloaded into the system prompt."}, nil
	case "history":
		return modelHistory(ctx, c, bank, id)
	}
	// delete, remove
	gone, err := c.DeleteModel(ctx, bank, id)
	if err != nil {
		return memoryMsg{}, err
	}
	if !gone {
		return memoryMsg{}, orNotFound(nil, id)
	}
	_ = auto.ReloadModels(ctx)
	return memoryMsg{notice: "Mental model " + id + " deleted."}, nil
}

// modelHistory shows each change of a mental model as a diff, newest
// first: an entry holds the text before its change, so the text after it
// is the next newer entry's (the model's current text for the newest).
func modelHistory(ctx context.Context, c *hindsight.Client, bank, id string) (memoryMsg, error) {
	mm, err := c.GetModel(ctx, bank, id)
	if err != nil || mm == nil {
		return memoryMsg{}, orNotFound(err, id)
	}
	changes, err := c.ModelHistory(ctx, bank, id)
	if err != nil {
		return memoryMsg{}, err
	}
	if len(changes) == 0 {
		return memoryMsg{notice: "No history recorded for " + id + "."}, nil
	}
	var sections []string
	after := mm.Content
	for _, ch := range changes {
		d := strings.TrimRight(diff.Unified(id, ch.Previous, after), "\n")
		if d == "" {
			d = "(no change in the text)"
		}
		sections = append(sections, "### "+ch.ChangedAt+"\n\n```diff\n"+d+"\n```")
		after = ch.Previous
	}
	return memoryMsg{title: "History of " + mm.Name, body: strings.Join(sections, "\n\n")}, nil
}

// orNotFound is err, or the error of a model the bank does not have.
func orNotFound(err error, id string) error {
	if err != nil {
		return err
	}
	return errors.New("no mental model " + id + " on this bank; /memory mm list shows them")
}
