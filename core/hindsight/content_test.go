package hindsight

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStripBlocks(t *testing.T) {
	t.Parallel()
	in := "a<memories>x\ny</memories>b<mental_models>m</mental_models>c<relevant_memories>r</relevant_memories><memories>open"
	if got := StripBlocks(in); got != "abc<memories>open" {
		t.Errorf("StripBlocks = %q", got)
	}
}

// The query is the prompt alone with one context turn; with more, the
// earlier turns come first under a heading, and a bound drops the oldest
// lines, keeping the prompt.
func TestRecallQuery(t *testing.T) {
	t.Parallel()
	hist := []Message{{"user", "first question"}, {"assistant", "first answer <memories>m</memories>"}, {"user", "second question"}, {"assistant", "second\nanswer"}, {"user", "now this"}}
	if q := RecallQuery("now this", hist, 1, 800); q != "now this" {
		t.Errorf("one turn: %q", q)
	}
	want := "Prior context:\n\nuser: second question\nassistant: second answer\n\nnow this"
	if q := RecallQuery(" now this ", hist, 2, 800); q != want {
		t.Errorf("two turns: %q", q)
	}
	if q := RecallQuery("now this", hist, 3, 800); !strings.HasPrefix(q, "Prior context:\n\nuser: first question\nassistant: first answer\n") {
		t.Errorf("three turns: %q", q)
	}
	if q := RecallQuery("now this", hist, 3, len(want)); q != want {
		t.Errorf("bounded: %q", q)
	}
	if q := RecallQuery("now this", hist, 3, 5); q != "now t" {
		t.Errorf("prompt cut: %q", q)
	}
}

func TestTranscriptAndLastTurns(t *testing.T) {
	t.Parallel()
	msgs := []Message{{"user", "one"}, {"assistant", "<memories>x</memories>"}, {"user", "two"}, {"assistant", "answer two"}}
	if got := Transcript(msgs); got != "[role: user]\none\n[user:end]\n\n[role: user]\ntwo\n[user:end]\n\n[role: assistant]\nanswer two\n[assistant:end]" {
		t.Errorf("Transcript = %q", got)
	}
	if got := Transcript([]Message{{"assistant", "<memories>x</memories> "}}); got != "" {
		t.Errorf("nothing left: %q", got)
	}
	if got := LastTurns(msgs, 1); len(got) != 2 || got[0].Content != "two" {
		t.Errorf("LastTurns 1 = %v", got)
	}
	if got := LastTurns(msgs, 5); len(got) != 4 {
		t.Errorf("LastTurns 5 = %v", got)
	}
}

// The block stays within its bound, keeps its closing tag (so it can be
// stripped) and says when it was cut.
func TestRenderModels(t *testing.T) {
	t.Parallel()
	models := []MentalModel{{ID: "b", Name: "B", Content: strings.Repeat("b", 5000)}, {ID: "a", Name: "A", Content: "short"}, {ID: "e", Name: "Empty"}}
	full := RenderModels(models, 16000)
	if !strings.HasPrefix(full, "<mental_models>\n") || !strings.HasSuffix(full, "</mental_models>") || strings.Index(full, "# A") > strings.Index(full, "# B") || strings.Contains(full, "Empty") || strings.Contains(full, "cut to fit") {
		t.Errorf("full = %q", full)
	}
	for _, n := range []int{400, 700, 1200} {
		got := RenderModels(models, n)
		if len(got) > n || !strings.HasSuffix(got, "</mental_models>") || !strings.Contains(got, "cut to fit") || !utf8.ValidString(got) {
			t.Errorf("bound %d: %d bytes %q", n, len(got), got)
		}
	}
	if got := RenderModels(models, 100); got != "" {
		t.Errorf("no room: %q", got)
	}
	if got := Seeds("global", []string{"project:p"}); len(got) != 1 || got[0].ID != "user-preferences" || got[0].Tags != nil {
		t.Errorf("global seeds %+v", got)
	}
	if got := Seeds("per-project-tagged", []string{"project:p"}); len(got) != 3 || got[1].Tags[0] != "project:p" {
		t.Errorf("tagged seeds %+v", got)
	}
}

// FuzzRecallQuery: the query stays within its bound and ends with (a
// prefix of) the prompt.
func FuzzRecallQuery(f *testing.F) {
	f.Add("what now?", "earlier words", "an answer", 3, 40)
	f.Add("é", "x", "y", 2, 1)
	f.Fuzz(func(t *testing.T, prompt, u, a string, turns, max int) {
		if max < 0 || max > 1<<16 || !utf8.ValidString(prompt) {
			return
		}
		q := RecallQuery(prompt, []Message{{"user", u}, {"assistant", a}, {"user", prompt}}, turns, max)
		latest := strings.TrimSpace(prompt)
		if max > 0 && len(q) > max {
			t.Fatalf("len %d > %d", len(q), max)
		}
		if !strings.HasSuffix(q, latest) && !strings.HasPrefix(latest, q) {
			t.Fatalf("query %q lost the prompt %q", q, latest)
		}
	})
}
