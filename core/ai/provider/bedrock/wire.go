package bedrock

// The JSON shapes of the ConverseStream API: the request body (the model
// id travels in the path) and the payloads of the stream's events. Each
// union of the API (a content block, a tool choice, a delta) is a struct
// with one field set; the others are left out of the JSON.

// converseRequest is the body of POST /model/{modelId}/converse-stream.
type converseRequest struct {
	Messages                     []message          `json:"messages"`
	System                       []systemBlock      `json:"system,omitempty"`
	InferenceConfig              *inferenceConfig   `json:"inferenceConfig,omitempty"`
	ToolConfig                   *toolConfiguration `json:"toolConfig,omitempty"`
	AdditionalModelRequestFields map[string]any     `json:"additionalModelRequestFields,omitempty"`
}

// Conversation roles.
const (
	roleUser      = "user"
	roleAssistant = "assistant"
)

// message is one turn of the conversation.
type message struct {
	Role    string         `json:"role"`
	Content []contentBlock `json:"content"`
}

// contentBlock is one block of a turn.
type contentBlock struct {
	Text             *string           `json:"text,omitempty"`
	Image            *imageBlock       `json:"image,omitempty"`
	ToolUse          *toolUseBlock     `json:"toolUse,omitempty"`
	ToolResult       *toolResultBlock  `json:"toolResult,omitempty"`
	ReasoningContent *reasoningContent `json:"reasoningContent,omitempty"`
	CachePoint       *cachePointBlock  `json:"cachePoint,omitempty"`
}

// textBlock is a text content block.
func textBlock(s string) contentBlock { return contentBlock{Text: &s} }

// imageBlock is an image sent as bytes (base64 in the JSON).
type imageBlock struct {
	Format string      `json:"format"` // png, jpeg, gif, webp
	Source imageSource `json:"source"`
}

type imageSource struct {
	Bytes []byte `json:"bytes"`
}

// toolUseBlock is a tool call of an assistant turn.
type toolUseBlock struct {
	ToolUseID string `json:"toolUseId"`
	Name      string `json:"name"`
	Input     any    `json:"input"`
}

// Tool result statuses.
const (
	statusSuccess = "success"
	statusError   = "error"
)

// toolResultBlock answers a tool call in a user turn.
type toolResultBlock struct {
	ToolUseID string              `json:"toolUseId"`
	Content   []toolResultContent `json:"content"`
	Status    string              `json:"status,omitempty"`
}

// toolResultContent is text or an image of a tool result.
type toolResultContent struct {
	Text  *string     `json:"text,omitempty"`
	Image *imageBlock `json:"image,omitempty"`
}

// reasoningContent replays reasoning: text with its signature, or the
// redacted bytes.
type reasoningContent struct {
	ReasoningText   *reasoningText `json:"reasoningText,omitempty"`
	RedactedContent []byte         `json:"redactedContent,omitempty"`
}

type reasoningText struct {
	Text      string `json:"text"`
	Signature string `json:"signature,omitempty"`
}

// cachePointBlock marks the end of a cached prefix.
type cachePointBlock struct {
	Type string `json:"type"`          // "default"
	TTL  string `json:"ttl,omitempty"` // "1h" for long retention
}

// systemBlock is a block of the system prompt.
type systemBlock struct {
	Text       *string          `json:"text,omitempty"`
	CachePoint *cachePointBlock `json:"cachePoint,omitempty"`
}

type inferenceConfig struct {
	MaxTokens   int      `json:"maxTokens"`
	Temperature *float64 `json:"temperature,omitempty"`
}

type toolConfiguration struct {
	Tools      []toolEntry `json:"tools"`
	ToolChoice *toolChoice `json:"toolChoice,omitempty"`
}

type toolEntry struct {
	ToolSpec toolSpec `json:"toolSpec"`
}

type toolSpec struct {
	Name        string      `json:"name"`
	Description string      `json:"description,omitempty"`
	InputSchema inputSchema `json:"inputSchema"`
}

type inputSchema struct {
	JSON any `json:"json"`
}

// toolChoice: auto, any (some tool is required) or one named tool.
type toolChoice struct {
	Auto *struct{}     `json:"auto,omitempty"`
	Any  *struct{}     `json:"any,omitempty"`
	Tool *specificTool `json:"tool,omitempty"`
}

type specificTool struct {
	Name string `json:"name"`
}

// streamEvent is the payload of any ConverseStream event; which fields
// are set depends on the event type (the :event-type header).
type streamEvent struct {
	Role              string      `json:"role"`              // messageStart
	ContentBlockIndex int         `json:"contentBlockIndex"` // contentBlock*
	Start             *blockStart `json:"start"`             // contentBlockStart
	Delta             *blockDelta `json:"delta"`             // contentBlockDelta
	StopReason        string      `json:"stopReason"`        // messageStop
	Usage             *usage      `json:"usage"`             // metadata
}

type blockStart struct {
	ToolUse *struct {
		ToolUseID string `json:"toolUseId"`
		Name      string `json:"name"`
	} `json:"toolUse"`
}

type blockDelta struct {
	Text    *string `json:"text"`
	ToolUse *struct {
		Input string `json:"input"`
	} `json:"toolUse"`
	ReasoningContent *struct {
		Text            *string `json:"text"`
		Signature       *string `json:"signature"`
		RedactedContent []byte  `json:"redactedContent"`
	} `json:"reasoningContent"`
}

type usage struct {
	InputTokens           int `json:"inputTokens"`
	OutputTokens          int `json:"outputTokens"`
	CacheReadInputTokens  int `json:"cacheReadInputTokens"`
	CacheWriteInputTokens int `json:"cacheWriteInputTokens"`
}

// exceptionPayload is the payload of an exception message in the stream
// and the body of a refused request.
type exceptionPayload struct {
	Message            string `json:"message"`
	MessageUpper       string `json:"Message"`
	Type               string `json:"__type"`
	OriginalStatusCode *int   `json:"originalStatusCode"`
}

// text returns the message, whichever spelling carried it.
func (e exceptionPayload) text() string {
	if e.Message != "" {
		return e.Message
	}
	return e.MessageUpper
}
