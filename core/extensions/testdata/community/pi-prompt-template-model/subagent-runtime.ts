export const PROMPT_TEMPLATE_SUBAGENT_REQUEST_EVENT = "prompt-template:subagent:request";
export const PROMPT_TEMPLATE_SUBAGENT_STARTED_EVENT = "prompt-template:subagent:started";
export const PROMPT_TEMPLATE_SUBAGENT_RESPONSE_EVENT = "prompt-template:subagent:response";
export const PROMPT_TEMPLATE_SUBAGENT_UPDATE_EVENT = "prompt-template:subagent:update";
export const PROMPT_TEMPLATE_SUBAGENT_CANCEL_EVENT = "prompt-template:subagent:cancel";
export const PROMPT_TEMPLATE_SUBAGENT_MESSAGE_TYPE = "prompt-template-subagent";
export const PROMPT_TEMPLATE_PROMPT_STARTED_EVENT = "prompt-template:prompt:started";
export const PROMPT_TEMPLATE_PROMPT_FINISHED_EVENT = "prompt-template:prompt:finished";
export const PROMPT_TEMPLATE_PROMPT_PROTOCOL_VERSION = 1 as const;
export const PROMPT_TEMPLATE_PROMPT_INVOKE_REQUEST_EVENT = "prompt-template:prompt:invoke";
export const PROMPT_TEMPLATE_PROMPT_INVOKE_ACK_EVENT = "prompt-template:prompt:invoke:ack";
export const PROMPT_TEMPLATE_PROMPT_INVOKE_PROTOCOL_VERSION = 1 as const;
export const DEFAULT_SUBAGENT_NAME = "delegate";

export type PromptTemplatePromptStatus = "completed" | "failed" | "cancelled";

export interface PromptTemplatePromptStarted {
	protocolVersion: typeof PROMPT_TEMPLATE_PROMPT_PROTOCOL_VERSION;
	runId: string;
	name: string;
}

export interface PromptTemplatePromptFinished {
	protocolVersion: typeof PROMPT_TEMPLATE_PROMPT_PROTOCOL_VERSION;
	runId: string;
	name: string;
	status: PromptTemplatePromptStatus;
	changed: boolean;
	lastText?: string;
}

export type PromptTemplatePromptInvokeRefusalReason =
	| "busy"
	| "chain-template"
	| "invalid-request"
	| "not-ready"
	| "unknown-template"
	| "unsupported-context";

export interface PromptTemplatePromptInvokeRequest {
	protocolVersion: typeof PROMPT_TEMPLATE_PROMPT_INVOKE_PROTOCOL_VERSION;
	requestId: string;
	name: string;
	args?: string;
}

export interface PromptTemplatePromptInvokeAccepted {
	protocolVersion: typeof PROMPT_TEMPLATE_PROMPT_INVOKE_PROTOCOL_VERSION;
	requestId: string;
	name: string;
	accepted: true;
	runId: string;
}

export interface PromptTemplatePromptInvokeRefused {
	protocolVersion: typeof PROMPT_TEMPLATE_PROMPT_INVOKE_PROTOCOL_VERSION;
	requestId: string;
	name: string;
	accepted: false;
	reason: PromptTemplatePromptInvokeRefusalReason;
}

export type PromptTemplatePromptInvokeAcknowledgement =
	| PromptTemplatePromptInvokeAccepted
	| PromptTemplatePromptInvokeRefused;

export interface DelegatedSkillBinding {
	name: string;
	path: string;
}

export interface DelegatedSubagentTask {
	agent: string;
	task: string;
	model?: string;
	skill?: string[];
	cwd?: string;
}

export interface DelegatedSubagentParallelResult {
	agent: string;
	messages: unknown[];
	isError: boolean;
	errorText?: string;
}

export interface DelegatedSubagentStarted {
	requestId: string;
	backend?: string;
	ownsProgress?: boolean;
}

export interface DelegatedSubagentRequest {
	requestId: string;
	ownerRunId?: string;
	nodeId?: string;
	agent: string;
	task: string;
	tasks?: DelegatedSubagentTask[];
	context: "fresh" | "fork";
	model?: string;
	skill?: string[];
	cwd: string;
	result?: { kind: "text" };
	worktree?: boolean;
}

export interface DelegatedSubagentResponse {
	requestId: string;
	agent: string;
	task: string;
	context: "fresh" | "fork";
	model?: string;
	cwd: string;
	messages: unknown[];
	parallelResults?: DelegatedSubagentParallelResult[];
	contentText?: string;
	isError: boolean;
	errorText?: string;
	changed?: boolean;
}

export interface StructuredSubagentDelegationResponse {
	requestId: string;
	ownerRunId?: string;
	nodeId?: string;
	status: string;
	error?: string;
	agent?: string;
	model?: string;
	result?:
		| { kind: "text"; text: string }
		| { kind: "structured"; value: unknown };
}

export interface DelegatedSubagentUpdate {
	requestId: string;
	currentTool?: string;
	currentToolArgs?: string;
	recentOutput?: string;
	recentOutputLines?: string[];
	recentTools?: Array<{ tool: string; args: string }>;
	model?: string;
	toolCount?: number;
	durationMs?: number;
	tokens?: number;
	taskProgress?: DelegatedSubagentTaskProgress[];
}

export interface DelegatedSubagentTaskProgress {
	index?: number;
	agent: string;
	status?: string;
	currentTool?: string;
	currentToolArgs?: string;
	recentOutput?: string;
	recentOutputLines?: string[];
	recentTools?: Array<{ tool: string; args: string }>;
	model?: string;
	toolCount?: number;
	durationMs?: number;
	tokens?: number;
}

export interface DelegatedSubagentLiveState {
	status?: string;
	currentTool?: string;
	currentToolArgs?: string;
	recentOutput: string[];
	recentTools: Array<{ tool: string; args: string }>;
	model?: string;
	toolCount: number;
	durationMs: number;
	tokens: number;
	taskProgress: DelegatedSubagentTaskProgress[];
	startedAt: number;
	updatedAt: number;
}

const delegatedLiveState = new Map<string, DelegatedSubagentLiveState>();

export function updateDelegatedLiveState(requestId: string, update: Partial<DelegatedSubagentLiveState>): void {
	const now = Date.now();
	const existing = delegatedLiveState.get(requestId) ?? {
		recentOutput: [],
		recentTools: [],
		toolCount: 0,
		durationMs: 0,
		tokens: 0,
		taskProgress: [],
		startedAt: now,
		updatedAt: now,
	};
	const next: DelegatedSubagentLiveState = {
		...existing,
		...update,
		recentOutput: update.recentOutput ?? existing.recentOutput,
		recentTools: update.recentTools ?? existing.recentTools,
		model: update.model ?? existing.model,
		toolCount: update.toolCount ?? existing.toolCount,
		durationMs: update.durationMs ?? (now - existing.startedAt),
		tokens: update.tokens ?? existing.tokens,
		taskProgress: update.taskProgress ?? existing.taskProgress,
		startedAt: existing.startedAt,
		updatedAt: now,
	};
	delegatedLiveState.set(requestId, next);
}

export function appendDelegatedLiveOutput(requestId: string, line?: string): void {
	if (!line || !line.trim() || line.trim() === "(running...)") return;
	const fallbackNow = Date.now();
	const existing = delegatedLiveState.get(requestId) ?? {
		recentOutput: [],
		recentTools: [],
		toolCount: 0,
		durationMs: 0,
		tokens: 0,
		taskProgress: [],
		startedAt: fallbackNow,
		updatedAt: fallbackNow,
	};
	const recentOutput = [...existing.recentOutput, line];
	delegatedLiveState.set(requestId, {
		...existing,
		recentOutput,
		updatedAt: Date.now(),
	});
}

export function getDelegatedLiveState(requestId: string): DelegatedSubagentLiveState | undefined {
	const state = delegatedLiveState.get(requestId);
	return state ? structuredClone(state) : undefined;
}

export function clearDelegatedLiveState(requestId: string): void {
	delegatedLiveState.delete(requestId);
}
