package extensions

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// modelsHost is a uiHost with two models, a key for one provider, and a
// record of the model set.
type modelsHost struct {
	uiHost
	set      string
	appended string
}

func (h *modelsHost) AppendEntry(_ string, data json.RawMessage) error {
	var v struct{ Out string }
	err := json.Unmarshal(data, &v)
	h.appended = v.Out
	return err
}

func (h *modelsHost) AvailableModels() []*ai.Model {
	return []*ai.Model{{Provider: "mock", ID: "mock-1"}, {Provider: "other", ID: "big"}}
}

func (h *modelsHost) FindModel(provider, id string) *ai.Model {
	for _, m := range h.AvailableModels() {
		if m.Provider == provider && m.ID == id {
			return m
		}
	}
	return nil
}

func (h *modelsHost) APIKey(provider string) string {
	if provider == "mock" {
		return "k-mock"
	}
	return ""
}

func (h *modelsHost) SetModel(provider, id string) error { h.set = provider + "/" + id; return nil }

// ctx.modelRegistry lists and finds the session's models and their keys,
// pi.setModel resolves true, pi.getCommands lists the extensions'
// commands, ctx.isProjectTrusted and ctx.waitForIdle answer: what
// community extensions ask of pi's API beyond omp's examples.
func TestModelRegistryAndFriends(t *testing.T) {
	dir := t.TempDir()
	p := writeExt(t, dir, "reg.ts", `export default function (pi) {
  pi.registerCommand("probe", { description: "probes", handler: async (_args, ctx) => {
    const r = ctx.modelRegistry;
    const key = await r.getApiKeyAndHeaders(r.find("mock", "mock-1"));
    const none = await r.getApiKeyAndHeaders(r.find("other", "big"));
    await ctx.waitForIdle();
    const out = [r.getAll().length, r.getAvailable().map((m) => m.provider + "/" + m.id).join(" "),
      String(r.find("nope", "x")), key.ok + ":" + key.apiKey, String(none.ok), r.hasConfiguredAuth(r.find("other", "big")),
      await pi.setModel(r.find("other", "big")), pi.getCommands().map((c) => c.name + "=" + c.description).join(),
      ctx.isProjectTrusted(), ctx.scopedModels.length];
    await pi.appendEntry("probe", { out: out.join("|") });
  } });
}`)
	r := Load(context.Background(), []Entry{{Path: p, Name: "reg"}}, Options{Cwd: dir})
	defer r.Close()
	if errs := r.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	h := &modelsHost{uiHost: uiHost{storeHost: storeHost{m: session.InMemory(dir)}}}
	r.Bind(h)
	if err := command(t, r, "probe").Run(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	want := "2|mock/mock-1 other/big|undefined|true:k-mock|false|false|true|probe=probes|false|0"
	if got := h.appended; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if h.set != "other/big" {
		t.Errorf("model set %q", h.set)
	}
}
