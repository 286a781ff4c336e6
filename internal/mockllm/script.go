package mockllm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// Block kinds of a scripted reply.
const (
	BlockText     = "text"     // visible assistant text
	BlockThinking = "thinking" // reasoning (Anthropic thinking, Responses reasoning summary, Gemini thought part, Chat Completions reasoning field)
	BlockToolCall = "toolCall" // a function/tool call with JSON arguments
	// BlockRedactedThinking is reasoning the provider hides: Anthropic sends
	// it as a redacted_thinking block whose data is the block's Signature;
	// the other formats have no equivalent and leave it out.
	BlockRedactedThinking = "redactedThinking"
)

// Normalized stop reasons a turn may end with; each format renders them
// with its own wire value (see the encoders).
const (
	StopAuto    = ""        // toolUse when the turn has a tool call, else stop
	StopStop    = "stop"    // a natural end of turn
	StopLength  = "length"  // the output token limit was hit
	StopToolUse = "toolUse" // the model wants tool results
	StopRefusal = "refusal" // a refusal or safety stop
)

// Wire formats, as recorded in Request.Format and accepted by Turn.Format.
const (
	FormatAnthropic   = "anthropic-messages"
	FormatCompletions = "openai-completions"
	FormatResponses   = "openai-responses"
	FormatGemini      = "google-generative-ai"
	FormatBedrock     = "bedrock-converse-stream"
)

// Block is one content block of a scripted assistant reply.
type Block struct {
	Type      string // BlockText, BlockThinking or BlockToolCall
	Text      string // text or thinking content
	Signature string // thinking signature (Anthropic signature, Responses encrypted_content, Gemini thoughtSignature)
	ID        string // tool call id; empty for a deterministic one
	Name      string // tool name
	Arguments string // tool arguments as JSON text, sent verbatim (may be malformed on purpose)
}

// OverflowMessage is the error text of Overflow: Anthropic's wording for a
// prompt larger than the context window, which every provider's context
// overflow check recognises.
const OverflowMessage = "prompt is too long: 212345 tokens, the maximum is 200000"

// Overflow returns a turn that refuses the request as too long for the
// model's context window (HTTP 400 with OverflowMessage, in the request's
// format), so a session recovers by compacting.
func Overflow() Turn { return Turn{Status: 400, ErrorMessage: OverflowMessage} }

// Text returns a text block.
func Text(s string) Block { return Block{Type: BlockText, Text: s} }

// Thinking returns a thinking block with an optional signature.
func Thinking(s, signature string) Block {
	return Block{Type: BlockThinking, Text: s, Signature: signature}
}

// ToolCall returns a tool call block; args is JSON text.
func ToolCall(name, args string) Block {
	return Block{Type: BlockToolCall, Name: name, Arguments: args}
}

// Usage is the token usage a turn reports. Input counts uncached prompt
// tokens; each format adds CacheRead back where its API reports a total.
type Usage struct {
	Input      int `json:"input"`      // uncached prompt tokens
	Output     int `json:"output"`     // generated tokens, reasoning included
	CacheRead  int `json:"cacheRead"`  // prompt tokens served from cache
	CacheWrite int `json:"cacheWrite"` // prompt tokens written to cache (Anthropic only)
	Reasoning  int `json:"reasoning"`  // part of Output spent on reasoning
}

// Turn is the server's answer to one request.
type Turn struct {
	Blocks  []Block // the reply's content in order
	Stop    string  // a Stop* constant; StopAuto derives it from the blocks
	RawStop string  // when set, sent verbatim as the format's stop value (e.g. "pause_turn", "RECITATION"; for Responses a status, or the incomplete_details.reason "content_filter" / "max_output_tokens")
	Usage   *Usage  // nil for defaults: input 100, output ≈ content length / 4
	NoUsage bool    // report no usage at all, as some compatible servers do (overrides Usage; see each format)

	Status       int               // an HTTP status ≥ 400 answers with that format's error body instead of a stream
	RetryAfter   string            // retry-after header value for an error status (seconds)
	ErrorMessage string            // message of the HTTP error or of StreamError; a default per status when empty
	StreamError  bool              // after the blocks, send the format's in-stream error instead of the normal end
	Headers      map[string]string // extra response headers

	DisconnectAfter  int           // cut the connection after this many frames (0: never)
	StallAfter       int           // after this many frames, send nothing until the client goes away (0: never)
	StallAfterDeltas int           // like StallAfter, counting only content deltas (text, thinking, arguments, whole Gemini calls)
	ChunkDelay       time.Duration // pause before every frame
	ChunkSize        int           // runes per text/thinking/argument delta (0: 8)

	Model          string // model name echoed in the reply (default: the request's)
	ReasoningField string // Chat Completions delta field for thinking: "reasoning_content" (default) or "reasoning"
	Format         string // when set, the request must be of this Format* or it fails with HTTP 400

	// Match, when set, reserves the turn for a request whose body contains
	// this text: a request plays the first unplayed turn that matches it
	// (a turn without Match matches any request). Requests made in
	// parallel (subagents) are answered by what they ask rather than by
	// when they arrive.
	Match string

	// Hold, when set, delays the reply until it is closed (or the client
	// goes away): a test decides when a parallel request gets its answer.
	// Go scripts only.
	Hold <-chan struct{} `json:"-"`
}

// defaultChunk is the delta size when a turn does not set ChunkSize: small
// enough that every block arrives in several deltas, as from a real model.
const defaultChunk = 8

// hasToolCall reports whether the turn's reply calls a tool.
func (t *Turn) hasToolCall() bool {
	for _, b := range t.Blocks {
		if b.Type == BlockToolCall {
			return true
		}
	}
	return false
}

// stop resolves StopAuto.
func (t *Turn) stop() string {
	if t.Stop != StopAuto {
		return t.Stop
	}
	if t.hasToolCall() {
		return StopToolUse
	}
	return StopStop
}

// usage resolves the default usage.
func (t *Turn) usage() Usage {
	if t.Usage != nil {
		return *t.Usage
	}
	n := 0
	for _, b := range t.Blocks {
		n += len(b.Text) + len(b.Name) + len(b.Arguments)
	}
	return Usage{Input: 100, Output: n/4 + 1}
}

// chunk splits s into deltas of the turn's chunk size (in runes).
func (t *Turn) chunk(s string) []string {
	size := t.ChunkSize
	if size <= 0 {
		size = defaultChunk
	}
	var out []string
	r := []rune(s)
	for len(r) > 0 {
		n := min(size, len(r))
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return out
}

// Validate reports the first problem with the turn, naming the field.
func (t *Turn) Validate() error {
	switch t.Stop {
	case StopAuto, StopStop, StopLength, StopToolUse, StopRefusal:
	default:
		return fmt.Errorf("stop %q is not one of stop, length, toolUse, refusal", t.Stop)
	}
	if t.Status != 0 && (t.Status < 400 || t.Status > 599) {
		return fmt.Errorf("status %d is not an HTTP error status (400-599)", t.Status)
	}
	switch t.Format {
	case "", FormatAnthropic, FormatCompletions, FormatResponses, FormatGemini, FormatVertex, FormatCodeAssist, FormatBedrock:
	default:
		return fmt.Errorf("format %q is not one of %s, %s, %s, %s, %s, %s, %s", t.Format, FormatAnthropic, FormatCompletions, FormatResponses, FormatGemini, FormatVertex, FormatCodeAssist, FormatBedrock)
	}
	switch t.ReasoningField {
	case "", "reasoning_content", "reasoning":
	default:
		return fmt.Errorf("reasoningField %q is not reasoning_content or reasoning", t.ReasoningField)
	}
	if t.DisconnectAfter < 0 || t.StallAfter < 0 || t.StallAfterDeltas < 0 || t.ChunkSize < 0 || t.ChunkDelay < 0 {
		return errors.New("disconnectAfter, stallAfter, chunkSize and chunkDelay must not be negative")
	}
	for i, b := range t.Blocks {
		switch b.Type {
		case BlockText, BlockThinking, BlockRedactedThinking:
		case BlockToolCall:
			if b.Name == "" {
				return fmt.Errorf("block %d: a toolCall needs a name", i)
			}
		default:
			return fmt.Errorf("block %d: type %q is not one of text, thinking, redactedThinking, toolCall", i, b.Type)
		}
	}
	return nil
}

// scriptFile is the JSON shape of a script file.
type scriptFile struct {
	Turns []turnJSON `json:"turns"`
}

type turnJSON struct {
	Blocks           []blockJSON       `json:"blocks"`
	Stop             string            `json:"stop"`
	RawStop          string            `json:"rawStop"`
	Usage            *Usage            `json:"usage"`
	NoUsage          bool              `json:"noUsage"`
	Status           int               `json:"status"`
	RetryAfter       string            `json:"retryAfter"`
	ErrorMessage     string            `json:"error"`
	StreamError      bool              `json:"streamError"`
	Headers          map[string]string `json:"headers"`
	DisconnectAfter  int               `json:"disconnectAfter"`
	StallAfter       int               `json:"stallAfter"`
	StallAfterDeltas int               `json:"stallAfterDeltas"`
	ChunkDelay       string            `json:"chunkDelay"`
	ChunkSize        int               `json:"chunkSize"`
	Model            string            `json:"model"`
	ReasoningField   string            `json:"reasoningField"`
	Format           string            `json:"format"`
	Match            string            `json:"match"`
}

type blockJSON struct {
	Type         string          `json:"type"`
	Text         string          `json:"text"`
	Signature    string          `json:"signature"`
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Arguments    json.RawMessage `json:"arguments"`
	ArgumentsRaw *string         `json:"argumentsRaw"`
}

// ParseScript decodes a script file:
//
//	{"turns": [
//	  {"blocks": [{"type": "thinking", "text": "…", "signature": "sig"},
//	              {"type": "text", "text": "Hello"}],
//	   "usage": {"input": 12, "output": 30}},
//	  {"blocks": [{"type": "toolCall", "name": "read", "arguments": {"path": "a.go"}}]},
//	  {"status": 429, "retryAfter": "2", "error": "slow down"},
//	  {"blocks": [{"type": "text", "text": "partial"}], "disconnectAfter": 3},
//	  {"blocks": [{"type": "toolCall", "name": "x", "argumentsRaw": "{\"a\":"}], "chunkDelay": "20ms"}
//	]}
//
// Turn fields use the JSON names of the Turn fields in lower camel case
// (blocks, stop, rawStop, usage, noUsage, status, retryAfter, error, streamError,
// headers, disconnectAfter, stallAfter, stallAfterDeltas, chunkDelay as a Go duration,
// chunkSize, model, reasoningField, format, match). A block's "arguments" is any
// JSON value, sent as its compact text; "argumentsRaw" is a string sent
// verbatim, for malformed arguments. Unknown fields are errors.
func ParseScript(data []byte) ([]Turn, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f scriptFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("script is not valid JSON of the form {\"turns\": [...]}: %w", err)
	}
	if len(f.Turns) == 0 {
		return nil, errors.New(`script has no turns: add at least one to "turns"`)
	}
	turns := make([]Turn, 0, len(f.Turns))
	for i, tj := range f.Turns {
		t, err := tj.turn()
		if err == nil {
			err = t.Validate()
		}
		if err != nil {
			return nil, fmt.Errorf("turn %d: %w", i+1, err)
		}
		turns = append(turns, t)
	}
	return turns, nil
}

// LoadScript reads and parses a script file.
func LoadScript(path string) ([]Turn, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading script: %w", err)
	}
	turns, err := ParseScript(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return turns, nil
}

func (tj *turnJSON) turn() (Turn, error) {
	t := Turn{
		Stop: tj.Stop, RawStop: tj.RawStop, Usage: tj.Usage, NoUsage: tj.NoUsage,
		Status: tj.Status, RetryAfter: tj.RetryAfter, ErrorMessage: tj.ErrorMessage,
		StreamError: tj.StreamError, Headers: tj.Headers,
		DisconnectAfter: tj.DisconnectAfter, StallAfter: tj.StallAfter, StallAfterDeltas: tj.StallAfterDeltas, ChunkSize: tj.ChunkSize,
		Model: tj.Model, ReasoningField: tj.ReasoningField, Format: tj.Format, Match: tj.Match,
	}
	if tj.ChunkDelay != "" {
		d, err := time.ParseDuration(tj.ChunkDelay)
		if err != nil {
			return t, fmt.Errorf("chunkDelay %q is not a duration like \"20ms\"", tj.ChunkDelay)
		}
		t.ChunkDelay = d
	}
	for i, bj := range tj.Blocks {
		b := Block{Type: bj.Type, Text: bj.Text, Signature: bj.Signature, ID: bj.ID, Name: bj.Name}
		switch {
		case bj.ArgumentsRaw != nil && len(bj.Arguments) > 0:
			return t, fmt.Errorf("block %d: give either arguments or argumentsRaw, not both", i)
		case bj.ArgumentsRaw != nil:
			b.Arguments = *bj.ArgumentsRaw
		case len(bj.Arguments) > 0:
			var buf bytes.Buffer
			if err := json.Compact(&buf, bj.Arguments); err != nil {
				return t, fmt.Errorf("block %d: arguments: %w", i, err)
			}
			b.Arguments = buf.String()
		}
		if b.Type == BlockToolCall && strings.TrimSpace(b.Arguments) == "" {
			b.Arguments = "{}"
		}
		t.Blocks = append(t.Blocks, b)
	}
	return t, nil
}
