package todo

import (
	"reflect"
	"strings"
	"testing"
)

func TestMarkdownRoundTrip(t *testing.T) {
	phases := []Phase{
		{Name: "Build", Tasks: []Task{
			{Content: "write the parser", Status: InProgress, Notes: []string{"two lines\nof note", "another"}},
			{Content: "add tests", Status: Completed},
		}},
		{Name: "Docs", Tasks: []Task{{Content: "README", Status: Abandoned}, {Content: "spec", Status: Pending}}},
	}
	md := Markdown(phases)
	want := "# Build\n- [/] write the parser\n  > two lines\n  > of note\n  >\n  > another\n- [x] add tests\n\n# Docs\n- [-] README\n- [ ] spec\n"
	if md != want {
		t.Fatalf("markdown:\n%s\nwant:\n%s", md, want)
	}
	got, problems := ParseMarkdown(md)
	if len(problems) > 0 || !reflect.DeepEqual(got, phases) {
		t.Errorf("parsed back: %+v %v", got, problems)
	}
	if Markdown(nil) != "# Todos\n" {
		t.Error("empty plan")
	}
}

func TestParseMarkdownForms(t *testing.T) {
	got, problems := ParseMarkdown("* [X] loose task\r\n+ [~] dropped\n## Next\n- [>] going\n\nsome prose\n- [?] odd\n")
	if len(got) != 2 || got[0].Name != "Todos" || got[0].Tasks[0].Status != Completed || got[0].Tasks[1].Status != Abandoned ||
		got[1].Name != "Next" || len(got[1].Tasks) != 1 || got[1].Tasks[0].Status != InProgress {
		t.Errorf("phases %+v", got)
	}
	if len(problems) != 2 || !strings.HasPrefix(problems[0], "Line 6: not a heading") || !strings.HasPrefix(problems[1], "Line 7: unknown status mark [?]") {
		t.Errorf("problems %q", problems)
	}
}

func FuzzParseMarkdown(f *testing.F) {
	f.Add("# Build\n- [/] a\n  > note\n  >\n  > two\n- [x] b\n")
	f.Add("- [ ] x\n## y\n* [~] z\nprose\n")
	f.Add("#\n#nospace\n- []x\n- [ab] c\n>")
	f.Fuzz(func(t *testing.T, s string) {
		phases, _ := ParseMarkdown(s)
		// What was read renders and reads back the same.
		again, problems := ParseMarkdown(Markdown(phases))
		if len(phases) == 0 {
			return
		}
		if len(problems) > 0 || !reflect.DeepEqual(again, phases) {
			t.Fatalf("%q: %+v, round trip %+v %v", s, phases, again, problems)
		}
	})
}
