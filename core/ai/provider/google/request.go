package google

import (
	"encoding/json"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// PayloadOptions adapt the generateContent body for the other APIs that
// carry it (Vertex AI, Cloud Code Assist). The zero value is the Gemini
// API's body.
type PayloadOptions struct {
	// CallIDs sends each tool call's id on its functionCall part and on the
	// matching functionResponse, cleaned to [A-Za-z0-9_-]{1,64} (Claude
	// models behind Cloud Code Assist pair calls and results by id).
	CallIDs bool
	// Parameters, when set, declares each tool's schema under "parameters"
	// (the older OpenAPI-style Schema field) as this function returns it,
	// instead of the full JSON Schema under "parametersJsonSchema".
	Parameters func(schema json.RawMessage) any
	// SameProvider also requires an earlier reply's provider to be the
	// model's before its thinking and signatures are replayed (two
	// providers may serve one API and model id with signatures that do not
	// carry over, as Gemini CLI and Antigravity do).
	SameProvider bool
	// CallSignature is sent as the thoughtSignature of replayed function
	// calls to Gemini 3 models, which refuse a call without one; gopi keeps
	// no per-call signature, so this is the validator-skipping placeholder
	// the services accept ("" sends none).
	CallSignature string
}

// SkipSignatureValidator is the placeholder thoughtSignature Vertex AI and
// Cloud Code Assist accept on a replayed Gemini 3 function call whose real
// signature is unknown.
const SkipSignatureValidator = "skip_thought_signature_validator"

// buildPayload turns a request into the Gemini API's generateContent body.
func buildPayload(req *ai.Request) map[string]any { return BuildPayload(req, PayloadOptions{}) }

// BuildPayload turns a request into a generateContent JSON body: contents,
// systemInstruction, generationConfig (output limit, temperature,
// thinkingConfig), tools and toolConfig.
func BuildPayload(req *ai.Request, opts PayloadOptions) map[string]any {
	m := req.Model
	p := map[string]any{"contents": convertContents(req, opts)}
	if req.SystemPrompt != "" {
		p["systemInstruction"] = map[string]any{"parts": []any{map[string]any{"text": req.SystemPrompt}}}
	}
	gen := map[string]any{"maxOutputTokens": req.EffectiveMaxTokens()}
	if req.Temperature != nil {
		gen["temperature"] = *req.Temperature
	}
	if m.Reasoning {
		if tc := thinkingConfig(m.ID, req.Thinking); tc != nil {
			gen["thinkingConfig"] = tc
		}
	}
	p["generationConfig"] = gen
	if len(req.Tools) > 0 {
		decls := make([]any, 0, len(req.Tools))
		for _, t := range req.Tools {
			d := map[string]any{"name": t.Name, "description": t.Description}
			switch {
			case opts.Parameters != nil:
				d["parameters"] = opts.Parameters(t.Parameters)
			case len(t.Parameters) > 0:
				d["parametersJsonSchema"] = t.Parameters
			}
			decls = append(decls, d)
		}
		p["tools"] = []any{map[string]any{"functionDeclarations": decls}}
		if tc := toolConfig(req.ToolChoice); tc != nil {
			p["toolConfig"] = tc
		}
	}
	return p
}

// thinkingConfig maps a thinking level: Gemini 3 models take a thinking
// level (low or high), Gemini 2.5 models a token budget (0 turns thinking
// off where the model allows it).
func thinkingConfig(modelID string, l ai.ThinkingLevel) map[string]any {
	off := l == "" || l == ai.ThinkingOff
	if strings.Contains(modelID, "gemini-3") {
		if off {
			return map[string]any{"thinkingLevel": "low"}
		}
		level := "high"
		if l == ai.ThinkingMinimal || l == ai.ThinkingLow {
			level = "low"
		}
		return map[string]any{"includeThoughts": true, "thinkingLevel": level}
	}
	if off {
		if strings.Contains(modelID, "pro") {
			return nil // 2.5 Pro cannot turn thinking off
		}
		return map[string]any{"thinkingBudget": 0}
	}
	return map[string]any{"includeThoughts": true, "thinkingBudget": ai.ThinkingBudgets[l]}
}

// convertContents renders the conversation. Gemini has roles "user" and
// "model"; tool results are functionResponse parts of a user turn, and
// consecutive tool results share one turn. Thinking and thought signatures
// are replayed only for messages this model produced.
func convertContents(req *ai.Request, opts PayloadOptions) []any {
	m := req.Model
	images := m.SupportsImages()
	var contents []any
	var toolParts []any // functionResponse parts waiting for their user turn
	flushTools := func() {
		if len(toolParts) > 0 {
			contents = append(contents, map[string]any{"role": "user", "parts": toolParts})
			toolParts = nil
		}
	}
	for _, msg := range req.Messages {
		if _, ok := msg.(*ai.ToolResultMessage); !ok {
			flushTools()
		}
		switch msg := msg.(type) {
		case *ai.UserMessage:
			var parts []any
			for _, b := range msg.Content {
				switch b := b.(type) {
				case *ai.TextContent:
					parts = append(parts, map[string]any{"text": b.Text})
				case *ai.ImageContent:
					if images {
						parts = append(parts, inlineData(b))
					}
				}
			}
			if len(parts) > 0 {
				contents = append(contents, map[string]any{"role": "user", "parts": parts})
			}
		case *ai.AssistantMessage:
			same := msg.API == m.API && msg.Model == m.ID && (!opts.SameProvider || msg.Provider == m.Provider)
			var parts []any
			for _, b := range msg.Content {
				switch b := b.(type) {
				case *ai.ThinkingContent:
					if !same || b.Thinking == "" {
						continue
					}
					part := map[string]any{"text": b.Thinking, "thought": true}
					if b.ThinkingSignature != "" {
						part["thoughtSignature"] = b.ThinkingSignature
					}
					parts = append(parts, part)
				case *ai.TextContent:
					if b.Text == "" {
						continue
					}
					part := map[string]any{"text": b.Text}
					if same && b.TextSignature != "" {
						part["thoughtSignature"] = b.TextSignature
					}
					parts = append(parts, part)
				case *ai.ToolCall:
					args := b.Arguments
					if args == nil {
						args = map[string]any{}
					}
					call := map[string]any{"name": b.Name, "args": args}
					if opts.CallIDs {
						call["id"] = ai.CleanToolCallID(b.ID)
					}
					part := map[string]any{"functionCall": call}
					if opts.CallSignature != "" && strings.Contains(m.ID, "gemini-3") {
						part["thoughtSignature"] = opts.CallSignature
					}
					parts = append(parts, part)
				}
			}
			if len(parts) > 0 {
				contents = append(contents, map[string]any{"role": "model", "parts": parts})
			}
		case *ai.ToolResultMessage:
			var text strings.Builder
			var imgs []any
			for _, b := range msg.Content {
				switch b := b.(type) {
				case *ai.TextContent:
					if text.Len() > 0 {
						text.WriteString("\n")
					}
					text.WriteString(b.Text)
				case *ai.ImageContent:
					if images {
						imgs = append(imgs, inlineData(b))
					}
				}
			}
			key := "output"
			if msg.IsError {
				key = "error"
			}
			fr := map[string]any{"name": msg.ToolName, "response": map[string]any{key: text.String()}}
			if opts.CallIDs {
				fr["id"] = ai.CleanToolCallID(msg.ToolCallID)
			}
			toolParts = append(toolParts, map[string]any{"functionResponse": fr})
			toolParts = append(toolParts, imgs...)
		}
	}
	flushTools()
	if contents == nil {
		contents = []any{}
	}
	return contents
}

func inlineData(b *ai.ImageContent) map[string]any {
	return map[string]any{"inlineData": map[string]any{"mimeType": b.MIMEType, "data": b.Data}}
}

// argsJSON renders function-call arguments as the single synthetic delta.
func argsJSON(args map[string]any) string {
	if args == nil {
		return "{}"
	}
	data, err := json.Marshal(args)
	if err != nil {
		return "{}"
	}
	return string(data)
}

// toolConfig maps a tool choice to Gemini's toolConfig (nil leaves it out:
// the model decides).
func toolConfig(c *ai.ToolChoice) map[string]any {
	if c == nil {
		return nil
	}
	var fc map[string]any
	switch c.Mode {
	case ai.ToolChoiceNone:
		fc = map[string]any{"mode": "NONE"}
	case ai.ToolChoiceRequired:
		fc = map[string]any{"mode": "ANY"}
	case ai.ToolChoiceTool:
		fc = map[string]any{"mode": "ANY", "allowedFunctionNames": []string{c.Name}}
	default:
		return nil
	}
	return map[string]any{"functionCallingConfig": fc}
}
