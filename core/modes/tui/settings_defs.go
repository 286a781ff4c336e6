package tui

// settingTab is one tab of the /settings editor.
type settingTab struct {
	label   string
	entries []settingEntry
}

// settingEntry is one setting the editor offers: its key in config.yml
// (kind, allowed values and default come from core/config's schema), the
// name shown and one line on what it does. Where omp offers a list to
// choose from (a submenu), options holds it: Enter opens the list instead
// of moving to the next value. Without options a boolean toggles, an enum
// moves to its next value and a string opens a text field (see
// settingsDash.change).
type settingEntry struct {
	key, label, desc string
	options          []settingOption
}

// settingOption is one choice of a setting's submenu: the value written
// (a string for an enum or a string setting, a float64 for a number), the
// name the list shows and, optionally, a few words on it.
type settingOption struct {
	value       any
	label, desc string
}

// numberOptions are the options of a number setting: each value with its
// label made by label.
func numberOptions(label func(n float64) string, values ...float64) []settingOption {
	out := make([]settingOption, len(values))
	for i, v := range values {
		out[i] = settingOption{value: v, label: label(v)}
	}
	return out
}

// countOf labels a number as a count of one, many: "1 task", "4 tasks".
func countOf(one, many string) func(float64) string {
	return func(n float64) string {
		if n == 1 {
			return "1 " + one
		}
		return showValue(n) + " " + many
	}
}

// thinkingOptions are the thinking levels a default may name (off is not
// one: it is chosen per session), with roughly how much each thinks.
var thinkingOptions = []settingOption{
	{"minimal", "min", "a glance (about 1k tokens)"},
	{"low", "low", "a short think (about 2k tokens)"},
	{"medium", "medium", "a real think (about 8k tokens)"},
	{"high", "high", "a long think (about 16k tokens)"},
	{"xhigh", "xhigh", "as long as the model allows (about 32k tokens)"},
}

// settingTabs are the editor's tabs, in omp's order, with the settings
// gopi acts on (omp's tabs for features gopi lacks are left out).
var settingTabs = []settingTab{
	{"Appearance", []settingEntry{
		{key: "images.autoResize", label: "Resize images", desc: "Shrink large images before they are sent to the model"},
		{key: "images.blockImages", label: "Block images", desc: "Never send images to the model"},
	}},
	{"Model", []settingEntry{
		{key: "defaultThinkingLevel", label: "Thinking level", desc: "How hard a reasoning model thinks, for this session and new ones", options: thinkingOptions},
		{key: "serviceTier", label: "Service tier", desc: "OpenAI's processing tier for requests (priority is /fast)", options: []settingOption{
			{"none", "None", "send no tier: the account's own"},
			{"auto", "Auto", "let OpenAI pick"},
			{"default", "Default", "ordinary processing"},
			{"flex", "Flex", "cheaper, slower when capacity is short"},
			{"scale", "Scale", "spend Scale Tier credits"},
			{"priority", "Priority", "faster, at a higher price"},
		}},
		{key: "retry.enabled", label: "Retry on errors", desc: "Send a request again after an overload or a dropped connection"},
		{key: "retry.maxRetries", label: "Retry attempts", desc: "How many times a failed request is sent again", options: numberOptions(countOf("retry", "retries"), 1, 2, 3, 5, 10)},
	}},
	{"Interaction", []settingEntry{
		{key: "steeringMode", label: "Steering mode", desc: "Deliver messages typed while the agent works one at a time, or all together"},
		{key: "followUpMode", label: "Follow-up mode", desc: "Send queued follow-ups one at a time, or all together"},
		{key: "interruptMode", label: "Interrupt mode", desc: "Steering interrupts the running tools at once, or waits for them"},
		{key: "loop.mode", label: "Loop mode", desc: "What /loop does between rounds: nothing, compact, or start afresh", options: []settingOption{
			{"prompt", "Prompt", "send the prompt again as a follow-up"},
			{"compact", "Compact", "compact the context, then send it again"},
			{"reset", "Reset", "open a new session, then send it again"},
		}},
		{key: "startup.quiet", label: "Quiet start", desc: "Leave out the welcome block when gopi starts"},
		{key: "autocompleteMaxVisible", label: "Completion rows", desc: "How many entries the / and @ completion list shows", options: numberOptions(countOf("item", "items"), 3, 5, 7, 10, 15, 20)},
		{key: "ask.timeout", label: "Ask timeout", desc: "Take the recommended answer of a question left unanswered this long", options: append(
			[]settingOption{{value: 0.0, label: "Disabled", desc: "wait for an answer"}}, numberOptions(countOf("second", "seconds"), 15, 30, 60, 120)...)},
	}},
	{"Context", []settingEntry{
		{key: "compaction.enabled", label: "Auto-compact", desc: "Summarise the conversation when the context window fills up"},
		{key: "compaction.strategy", label: "Compaction strategy", desc: "Summarise in place, or hand off to a fresh session", options: []settingOption{
			{"context-full", "Context-full", "summarise and stay in this session"},
			{"handoff", "Handoff", "write a handoff and go on in a new session"},
			{"off", "Off", "no automatic compaction (as Auto-compact off)"},
		}},
		{key: "compaction.thresholdPercent", label: "Compaction threshold", desc: "How full the context window may get before it is compacted", options: append(
			[]settingOption{{value: -1.0, label: "Default", desc: "leave room for the reply, as before"}},
			numberOptions(func(n float64) string { return showValue(n) + "%" }, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 95)...)},
		{key: "compaction.idleEnabled", label: "Idle compaction", desc: "Compact a large context while you are away"},
		{key: "compaction.remoteEnabled", label: "Remote compaction", desc: "Let the provider compact the context where it can"},
		{key: "contextPromotion.enabled", label: "Context promotion", desc: "Move to a larger-context model instead of compacting on overflow"},
		{key: "branchSummary.enabled", label: "Branch summaries", desc: "Summarise the branch left when moving in /tree"},
		{key: "ttsr.enabled", label: "Stream rules", desc: "Watch the model's output for rules that should interrupt it"},
		{key: "ttsr.contextMode", label: "Stream rule context", desc: "Keep or drop the interrupted output when a rule fires"},
		{key: "ttsr.interruptMode", label: "Stream rule interrupts", desc: "Which output a stream rule may interrupt", options: []settingOption{
			{"always", "always", "text and tool calls"},
			{"prose-only", "prose-only", "the reply and thinking only"},
			{"tool-only", "tool-only", "tool call arguments only"},
			{"never", "never", "no interruption: a warning after the reply"},
		}},
		{key: "ttsr.repeatMode", label: "Stream rule repeats", desc: "Fire a rule once a session, or again after a gap"},
	}},
	{"Editing", []settingEntry{
		{key: "edit.mode", label: "Edit mode", desc: "How the model writes its edits to files"},
		{key: "edit.blockAutoGenerated", label: "Block generated files", desc: "Refuse edits to files marked as generated"},
		{key: "readLineNumbers", label: "Line numbers", desc: "Number the lines the read tool returns"},
		{key: "readHashLines", label: "Hash lines", desc: "Mark read lines with hashes that edits refer to"},
		{key: "read.summarize.enabled", label: "Read summaries", desc: "Fold long function bodies when reading code"},
		{key: "read.defaultLimit", label: "Read limit", desc: "Lines a read returns when the model names no limit", options: numberOptions(countOf("line", "lines"), 200, 300, 500, 1000, 5000)},
		{key: "lsp.enabled", label: "Language servers", desc: "Start language servers for diagnostics and navigation"},
		{key: "lsp.diagnosticsOnWrite", label: "Diagnostics on write", desc: "Report a language server's errors after a write"},
		{key: "lsp.diagnosticsOnEdit", label: "Diagnostics on edit", desc: "Report a language server's errors after an edit"},
		{key: "bashInterceptor.enabled", label: "Bash interceptor", desc: "Steer shell commands that a built-in tool does better"},
		{key: "eval.py", label: "Python cells", desc: "Let the eval tool run Python"},
		{key: "eval.js", label: "JavaScript cells", desc: "Let the eval tool run JavaScript"},
		{key: "python.kernelMode", label: "Python kernel", desc: "One kernel for the session, or a fresh one per call"},
	}},
	{"Tools", []settingEntry{
		{key: "todo.enabled", label: "Todos", desc: "Offer the todo tool for plans of several steps"},
		{key: "todo.reminders", label: "Todo reminders", desc: "Remind the model of unfinished todos"},
		{key: "fetch.enabled", label: "Read URLs", desc: "Let the read tool fetch web pages"},
		{key: "web_search.enabled", label: "Web search", desc: "Offer the web_search tool"},
		{key: "github.enabled", label: "GitHub", desc: "Offer the github tool (needs gh)"},
		{key: "browser.enabled", label: "Browser", desc: "Offer the browser tool"},
		{key: "browser.headless", label: "Headless browser", desc: "Run the browser without a window"},
		{key: "browser.screenshotDir", label: "Screenshot folder", desc: "Where screenshots are saved (~ allowed); unset, they go to a temporary file"},
		{key: "calc.enabled", label: "Calculator", desc: "Offer the calc tool"},
		{key: "recipe.enabled", label: "Recipes", desc: "Offer the recipe tool for project tasks"},
		{key: "checkpoint.enabled", label: "Checkpoints", desc: "Offer checkpoint and rewind"},
		{key: "inspect_image.enabled", label: "Inspect images", desc: "Offer the inspect_image tool"},
		{key: "renderMermaid.enabled", label: "Mermaid", desc: "Offer the render_mermaid tool"},
		{key: "debug.enabled", label: "Debugger", desc: "Offer the debug tool"},
		{key: "async.enabled", label: "Background jobs", desc: "Let tools run as background jobs"},
		{key: "async.pollWaitDuration", label: "Job wait", desc: "How long a wait for background jobs lasts", options: []settingOption{
			{"5s", "5 seconds", ""}, {"10s", "10 seconds", ""}, {"30s", "30 seconds", "the default"}, {"1m", "1 minute", ""}, {"5m", "5 minutes", ""},
		}},
		{key: "bash.autoBackground.enabled", label: "Background long commands", desc: "Move a slow shell command to the background"},
		{key: "mcp.enableProjectConfig", label: "Project MCP servers", desc: "Read MCP servers from the project's .gopi/mcp.json"},
	}},
	{"Tasks", []settingEntry{
		{key: "plan.enabled", label: "Plan mode", desc: "Offer /plan, where the agent plans before it changes anything"},
		{key: "skills.enableSkillCommands", label: "Skill commands", desc: "Offer each skill as /skill:<name>"},
		{key: "task.maxConcurrency", label: "Parallel subagents", desc: "How many subagents may run at once", options: append(
			[]settingOption{{value: 0.0, label: "Unlimited"}}, numberOptions(countOf("task", "tasks"), 1, 2, 4, 8, 16, 32, 64)...)},
	}},
	{"Providers", []settingEntry{
		{key: "secrets.enabled", label: "Hide secrets", desc: "Replace known secrets with placeholders before they reach the model"},
		{key: "providers.webSearch", label: "Web search provider", desc: "Which service web_search asks", options: webSearchOptions},
		{key: "searxng.endpoint", label: "SearXNG endpoint", desc: "The address of your own SearXNG server, for web_search"},
	}},
}

// webSearchOptions are the web_search providers, with what each needs.
var webSearchOptions = []settingOption{
	{"auto", "Auto", "the first provider that is set up"},
	{"exa", "Exa", "EXA_API_KEY, else Exa's keyless endpoint"},
	{"brave", "Brave", "needs BRAVE_API_KEY"},
	{"jina", "Jina", "needs JINA_API_KEY"},
	{"kimi", "Kimi", "needs MOONSHOT_SEARCH_API_KEY or MOONSHOT_API_KEY"},
	{"zai", "Z.AI", "Z.AI's search through its MCP server"},
	{"perplexity", "Perplexity", "needs PERPLEXITY_COOKIES or PERPLEXITY_API_KEY"},
	{"anthropic", "Anthropic", "Anthropic's own web search"},
	{"gemini", "Gemini", "grounding with a Google sign-in"},
	{"codex", "Codex", "OpenAI's web search through a Codex sign-in"},
	{"tavily", "Tavily", "needs TAVILY_API_KEY"},
	{"kagi", "Kagi", "needs KAGI_API_KEY (Kagi's search API)"},
	{"synthetic", "Synthetic", "needs SYNTHETIC_API_KEY"},
	{"parallel", "Parallel", "needs PARALLEL_API_KEY"},
	{"searxng", "SearXNG", "needs searxng.endpoint (or SEARXNG_ENDPOINT)"},
}
