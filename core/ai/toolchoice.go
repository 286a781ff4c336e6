package ai

// ToolChoiceMode says how the model may use the offered tools.
type ToolChoiceMode string

// Tool choice modes.
const (
	ToolChoiceAuto     ToolChoiceMode = "auto"     // the model decides (the default when no choice is given)
	ToolChoiceNone     ToolChoiceMode = "none"     // the model must answer without tools
	ToolChoiceRequired ToolChoiceMode = "required" // the model must call some tool
	ToolChoiceTool     ToolChoiceMode = "tool"     // the model must call the tool named in ToolChoice.Name
)

// ToolChoice constrains the model's use of tools for one request. The agent
// uses ToolChoiceTool for one-shot forced calls (the hidden resolve tool
// after a preview) and ToolChoiceNone for tool-less summaries.
type ToolChoice struct {
	Mode ToolChoiceMode // how tools may be used
	Name string         // the tool to call, for ToolChoiceTool
}

// ForcedTool returns the name of the tool c forces, or "".
func (c *ToolChoice) ForcedTool() string {
	if c == nil || c.Mode != ToolChoiceTool {
		return ""
	}
	return c.Name
}
