package ai

// API names a wire format; each has one Provider implementation.
type API string

// Built-in wire APIs.
const (
	APIAnthropicMessages     API = "anthropic-messages"      // Anthropic Messages API (SSE)
	APIOpenAICompletions     API = "openai-completions"      // OpenAI Chat Completions (SSE), and compatible servers
	APIOpenAIResponses       API = "openai-responses"        // OpenAI Responses API (SSE)
	APIGoogleGenerativeAI    API = "google-generative-ai"    // Gemini streamGenerateContent (SSE)
	APIGoogleVertex          API = "google-vertex"           // Gemini on Vertex AI (SSE; application default credentials)
	APIGoogleGeminiCLI       API = "google-gemini-cli"       // Cloud Code Assist (Gemini CLI and Antigravity logins; SSE)
	APIBedrockConverseStream API = "bedrock-converse-stream" // Amazon Bedrock ConverseStream (AWS event stream, SigV4)
)

// Wire APIs of the Responses family beyond OpenAI's own.
const (
	APIOpenAICodexResponses API = "openai-codex-responses" // the ChatGPT backend's Responses API (ChatGPT sign-in)
	APIAzureOpenAIResponses API = "azure-openai-responses" // Azure OpenAI's Responses API (deployments, api-version)
)

// Input modalities a model accepts.
const (
	InputText  = "text"  // text input
	InputImage = "image" // image input
)

// Model describes one model of one provider.
type Model struct {
	ID            string            `json:"id" yaml:"id"`                               // id sent to the API, e.g. "claude-sonnet-4-5"
	Name          string            `json:"name" yaml:"name"`                           // human-facing name
	API           API               `json:"api" yaml:"api"`                             // wire format
	Provider      string            `json:"provider" yaml:"provider"`                   // provider name, e.g. "anthropic"
	BaseURL       string            `json:"baseUrl" yaml:"baseUrl"`                     // API root, e.g. "https://api.anthropic.com"
	Reasoning     bool              `json:"reasoning" yaml:"reasoning"`                 // supports thinking/reasoning
	Input         []string          `json:"input" yaml:"input"`                         // accepted modalities: "text", "image"
	Cost          Prices            `json:"cost" yaml:"cost"`                           // dollars per million tokens
	ContextWindow int               `json:"contextWindow" yaml:"contextWindow"`         // total tokens the model can attend to
	MaxTokens     int               `json:"maxTokens" yaml:"maxTokens"`                 // maximum output tokens
	Headers       map[string]string `json:"headers,omitempty" yaml:"headers,omitempty"` // extra HTTP headers for every request
	Compat        map[string]any    `json:"compat,omitempty" yaml:"compat,omitempty"`   // provider quirks (OpenAI-compatible servers)
	// ContextPromotionTarget names the model to switch to when this one's
	// context overflows ("provider/id", or an id of the same provider);
	// "" for none.
	ContextPromotionTarget string `json:"contextPromotionTarget,omitempty" yaml:"contextPromotionTarget,omitempty"`
	// Thinking lists the thinking levels the model accepts and how they
	// are sent; nil when the catalogue does not say (the level is then
	// clamped by API family).
	Thinking *ThinkingSpec `json:"thinking,omitempty" yaml:"thinking,omitempty"`
}

// SupportsImages reports whether the model accepts image input.
func (m *Model) SupportsImages() bool {
	for _, in := range m.Input {
		if in == InputImage {
			return true
		}
	}
	return false
}

// ThinkingLevel is the requested reasoning effort.
type ThinkingLevel string

// Thinking levels, from none to the most.
const (
	ThinkingOff     ThinkingLevel = "off"     // no reasoning
	ThinkingMinimal ThinkingLevel = "minimal" // the least the model supports
	ThinkingLow     ThinkingLevel = "low"     // low effort
	ThinkingMedium  ThinkingLevel = "medium"  // medium effort
	ThinkingHigh    ThinkingLevel = "high"    // high effort
	ThinkingXHigh   ThinkingLevel = "xhigh"   // the most the model supports
)

// ThinkingLevels lists the levels in increasing order.
var ThinkingLevels = []ThinkingLevel{ThinkingOff, ThinkingMinimal, ThinkingLow, ThinkingMedium, ThinkingHigh, ThinkingXHigh}

// ParseThinkingLevel validates a level name ("" means off).
func ParseThinkingLevel(s string) (ThinkingLevel, bool) {
	if s == "" {
		return ThinkingOff, true
	}
	for _, l := range ThinkingLevels {
		if string(l) == s {
			return l, true
		}
	}
	return "", false
}

// ThinkingBudgets are the default token budgets for budget-based APIs
// (Anthropic, Gemini 2.5) per level.
var ThinkingBudgets = map[ThinkingLevel]int{
	ThinkingMinimal: 1024,
	ThinkingLow:     2048,
	ThinkingMedium:  8192,
	ThinkingHigh:    16384,
	ThinkingXHigh:   32768,
}
