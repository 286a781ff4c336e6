// Package rendermermaid is the render_mermaid tool: the model hands it
// Mermaid source and gets the diagram back as terminal text (the mermaid
// package draws it), to show a flow or a sequence to the user in a
// terminal. The drawing is also saved as a session artifact when the
// session has an artifacts directory, and the result names it.
package rendermermaid

import (
	"context"
	"math"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/mermaid"
)

// Name is the tool's name.
const Name = "render_mermaid"

const description = `Draws a Mermaid diagram as text for the terminal (box-drawing characters, or plain ASCII with config.useAscii) and returns it.

- mermaid: the source, header first. Flowcharts ("graph TD", "flowchart LR"; TD, TB, BT, LR, RL), sequence diagrams ("sequenceDiagram") and state diagrams ("stateDiagram-v2") are drawn; other diagram kinds are refused.
- config (optional): useAscii, paddingX and paddingY (spacing between nodes), boxBorderPadding (space inside boxes).
- The drawing is also saved as an artifact:// the result names, when the session keeps artifacts.
- Invalid Mermaid fails with the line that could not be read.`

// Details are what a call reports besides the drawing.
type Details struct {
	ArtifactID string `json:"artifactId,omitempty"` // the saved drawing, when saved
}

// Tool is the render_mermaid tool of a session.
type Tool struct{ env *tool.Env }

// New returns the tool for env (its artifact store keeps the drawings).
func New(env *tool.Env) tool.Tool { return &Tool{env: env} }

// Available reports whether the session offers the tool:
// renderMermaid.enabled.
func Available(env *tool.Env) bool { return env.Settings.RenderMermaidEnabled }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        Name,
		Label:       "RenderMermaid",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"mermaid": {Type: "string", Description: "mermaid source", Examples: []any{"graph TD; A-->B"}},
			"config": tool.Object(map[string]*tool.Schema{
				"useAscii":         {Type: "boolean"},
				"paddingX":         {Type: "number"},
				"paddingY":         {Type: "number"},
				"boxBorderPadding": {Type: "number"},
			}),
		}, "mermaid"),
		Concurrency: tool.Shared,
		ReadOnly:    true,
	}
}

// input is a call's arguments.
type input struct {
	Mermaid string `json:"mermaid"`
	Config  *struct {
		UseASCII         bool     `json:"useAscii"`
		PaddingX         *float64 `json:"paddingX"`
		PaddingY         *float64 `json:"paddingY"`
		BoxBorderPadding *float64 `json:"boxBorderPadding"`
	} `json:"config"`
}

// options are the drawing options of a call: the defaults, with each
// number given rounded down and negative ones taken as 0.
func (in input) options() mermaid.Options {
	o := mermaid.DefaultOptions()
	if in.Config == nil {
		return o
	}
	o.UseASCII = in.Config.UseASCII
	set := func(dst *int, v *float64) {
		if v != nil && !math.IsNaN(*v) {
			*dst = int(max(math.Floor(min(*v, 1e6)), 0))
		}
	}
	set(&o.PaddingX, in.Config.PaddingX)
	set(&o.PaddingY, in.Config.PaddingY)
	set(&o.BoxBorderPadding, in.Config.BoxBorderPadding)
	return o
}

// Execute draws the diagram and saves it as an artifact.
func (t *Tool) Execute(_ context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var in input
	if err := args.Decode(&in); err != nil {
		return nil, err
	}
	text, err := mermaid.Render(in.Mermaid, in.options())
	if err != nil {
		return nil, &tool.Error{Msg: err.Error() + ". Fix the source and call render_mermaid again.", Err: err}
	}
	d := &Details{}
	if t.env.Artifacts != nil {
		id, err := t.env.Artifacts.Save(Name, text)
		if err != nil {
			return nil, tool.Errorf("The diagram was drawn but could not be saved as an artifact: %v", err)
		}
		d.ArtifactID = id
		text += "\n\nSaved artifact: " + artifact.URL(id)
	}
	return tool.TextResult(text, d), nil
}
