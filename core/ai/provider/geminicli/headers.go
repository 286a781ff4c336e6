package geminicli

import (
	"net/http"
	"runtime"
)

// Default client versions the headers claim (PI_AI_GEMINI_CLI_VERSION and
// PI_AI_ANTIGRAVITY_VERSION override them through Settings).
const (
	DefaultCLIVersion         = "0.35.3"
	DefaultAntigravityVersion = "1.104.0"
)

// clientMetadata is the Client-Metadata header Gemini CLI sends.
const clientMetadata = "ideType=IDE_UNSPECIFIED,platform=PLATFORM_UNSPECIFIED,pluginType=GEMINI"

// claudeThinkingBeta is the anthropic-beta value Antigravity's Claude
// models need for interleaved thinking.
const claudeThinkingBeta = "interleaved-thinking-2025-05-14"

// cliUserAgent is Gemini CLI's User-Agent:
// "GeminiCLI/<version>/<model> (<platform>; <arch>; terminal)", with
// Node's names for the platform and architecture (win32, x64, ia32).
func cliUserAgent(version, model string) string {
	if version == "" {
		version = DefaultCLIVersion
	}
	platform := runtime.GOOS
	if platform == "windows" {
		platform = "win32"
	}
	arch := runtime.GOARCH
	switch arch {
	case "amd64":
		arch = "x64"
	case "386":
		arch = "ia32"
	}
	return "GeminiCLI/" + version + "/" + model + " (" + platform + "; " + arch + "; terminal)"
}

// antigravityUserAgent is Antigravity's User-Agent:
// "antigravity/<version> <os>/<arch>", with Go's names (windows, amd64).
func antigravityUserAgent(version string) string {
	if version == "" {
		version = DefaultAntigravityVersion
	}
	return "antigravity/" + version + " " + runtime.GOOS + "/" + runtime.GOARCH
}

// antigravityIdentity is the system instruction Antigravity's backend
// expects before the caller's own for Claude and Gemini 3 Pro High models
// (a protocol constant of the service, sent verbatim).
const antigravityIdentity = "You are Antigravity, a powerful agentic AI coding assistant designed by the Google Deepmind team working on Advanced Agentic Coding." +
	"You are pair programming with a USER to solve their coding task. The task may require creating a new codebase, modifying or debugging an existing codebase, or simply answering a question." +
	"**Absolute paths only**" +
	"**Proactiveness**"

// IdentityHeaders are the client identity of a Cloud Code Assist request
// made outside a model call (web search grounding): Gemini CLI's
// User-Agent for model with its Client-Metadata, or with antigravity
// Antigravity's User-Agent. version "" is the default of either.
func IdentityHeaders(antigravity bool, version, model string) http.Header {
	h := http.Header{}
	if antigravity {
		h.Set("User-Agent", antigravityUserAgent(version))
		return h
	}
	h.Set("User-Agent", cliUserAgent(version, model))
	h.Set("Client-Metadata", clientMetadata)
	return h
}

// AntigravityIdentity is the system instruction Antigravity's backend
// expects first.
func AntigravityIdentity() string { return antigravityIdentity }
