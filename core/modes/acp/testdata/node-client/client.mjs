// An editor for `gopi acp`, written with the official TypeScript library
// (@agentclientprotocol/sdk). core/modes/acp's TestNodeClient copies it
// next to the library's node_modules and runs it:
//
//   node client.mjs '{"command": …, "args": […], "env": {…}, "cwd": "/abs/project"}'
//
// It starts the agent (command), and over two processes it runs: initialize,
// session/new, a prompt whose answer reads a file and edits it (a
// permission request, allowed; the edit comes back as a diff and is
// written through fs/write_text_file), a prompt cancelled mid-answer with
// session/cancel, then, in a fresh agent process, session/load of the
// session (its history is replayed) and one more prompt. Any deviation
// throws; on success it prints a JSON summary on stdout.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const cfg = JSON.parse(process.argv[2]);

function check(cond, what, detail) {
	if (!cond) {
		throw new Error(`${what}${detail === undefined ? "" : `: ${JSON.stringify(detail, null, 1)}`}`);
	}
}

// The editor's state: every update, permission request and file request.
const state = { updates: [], permissions: [], reads: [], writes: [], order: [], onUpdate: undefined };

const editor = acp
	.client({ name: "gopi-node-test" })
	.onNotification(acp.methods.client.session.update, async ctx => {
		state.updates.push(ctx.params.update);
		if (ctx.params.update.status === "in_progress") state.order.push(`in_progress ${ctx.params.update.toolCallId}`);
		state.onUpdate?.(ctx.params.update);
	})
	.onRequest(acp.methods.client.session.requestPermission, async ctx => {
		state.permissions.push(ctx.params);
		state.order.push(`permission ${ctx.params.toolCall.toolCallId}`);
		const allow = ctx.params.options.find(o => o.kind === "allow_once");
		check(allow, "no allow_once option", ctx.params.options);
		return { outcome: { outcome: "selected", optionId: allow.optionId } };
	})
	.onRequest(acp.methods.client.fs.readTextFile, async ctx => {
		state.reads.push(ctx.params.path);
		return { content: fs.readFileSync(ctx.params.path, "utf8") };
	})
	.onRequest(acp.methods.client.fs.writeTextFile, async ctx => {
		state.writes.push(ctx.params.path);
		fs.writeFileSync(ctx.params.path, ctx.params.content);
		return {};
	});

// session runs op against a fresh agent process, then closes its input
// and waits for it to exit.
async function session(op) {
	const child = spawn(cfg.command, cfg.args, { env: cfg.env, cwd: cfg.cwd, stdio: ["pipe", "pipe", "pipe"] });
	child.stderr.on("data", d => process.stderr.write(d));
	const exited = new Promise(resolve => child.on("exit", code => resolve(code)));
	const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
	try {
		await editor.connectWith(stream, async cx => {
			const init = await cx.request(acp.methods.agent.initialize, {
				protocolVersion: acp.PROTOCOL_VERSION,
				clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
				clientInfo: { name: "gopi-node-test", version: "1" },
			});
			check(init.protocolVersion === acp.PROTOCOL_VERSION, "protocol version", init);
			check(init.agentCapabilities?.loadSession === true, "loadSession capability", init);
			check(init.agentInfo?.name === "gopi", "agent info", init);
			await op(cx);
		});
	} finally {
		child.stdin.end();
	}
	const code = await exited;
	check(code === 0, `the agent exited with ${code}`);
}

// calls merges tool_call and tool_call_update updates by id.
function calls(updates) {
	const byId = new Map();
	for (const u of updates) {
		if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") continue;
		const c = byId.get(u.toolCallId) ?? { statuses: [], content: [], locations: [] };
		if (u.title) c.title = u.title;
		if (u.kind) c.kind = u.kind;
		if (u.status) c.statuses.push(u.status);
		c.content.push(...(u.content ?? []));
		c.locations.push(...(u.locations ?? []).map(l => l.path));
		byId.set(u.toolCallId, c);
	}
	return [...byId.values()];
}

const text = (updates, kind) =>
	updates
		.filter(u => u.sessionUpdate === kind && u.content?.type === "text")
		.map(u => u.content.text)
		.join("");

const greet = path.join(cfg.cwd, "greet.go");
const summary = {};
let sessionId;

await session(async cx => {
	const created = await cx.request(acp.methods.agent.session.new, { cwd: cfg.cwd, mcpServers: [] });
	sessionId = created.sessionId;
	check(typeof sessionId === "string" && sessionId.length > 0, "session id", created);
	check(created.configOptions?.some(o => o.category === "model"), "model option", created);

	// A turn with a read, a permission request and an edit.
	const turn = await cx.request(acp.methods.agent.session.prompt, {
		sessionId,
		prompt: [{ type: "text", text: "make greet say Hello, world!" }],
	});
	check(turn.stopReason === "end_turn", "first stop reason", turn);
	check(text(state.updates, "agent_message_chunk") === "Reading it.Done.", "streamed text", text(state.updates, "agent_message_chunk"));
	const [read, edit] = calls(state.updates);
	check(read?.kind === "read" && read.statuses.at(-1) === "completed" && read.locations.includes(greet), "read call", read);
	check(edit?.kind === "edit" && edit.statuses.at(-1) === "completed", "edit call", edit);
	const editId = state.permissions[0]?.toolCall.toolCallId;
	const asked = state.order.indexOf(`permission ${editId}`);
	const running = state.order.indexOf(`in_progress ${editId}`);
	check(asked >= 0 && running > asked, "the edit must be in progress only after the permission was granted", state.order);
	const diff = edit.content.find(c => c.type === "diff");
	check(diff && diff.path === greet && diff.oldText.includes('"Hello"') && diff.newText.includes('"Hello, world!"'), "edit diff", edit.content);
	check(state.permissions.length === 1 && state.permissions[0].toolCall.kind === "edit", "permission request", state.permissions);
	check(state.writes.includes(greet), "the edit went through fs/write_text_file", state.writes);
	check(state.reads.includes(greet), "the read went through fs/read_text_file", state.reads);
	check(fs.readFileSync(greet, "utf8").includes("Hello, world!"), "greet.go after the edit");
	summary.first = { stopReason: turn.stopReason, calls: calls(state.updates).length, permissions: state.permissions.length };

	// A turn cancelled while the answer streams.
	state.updates = [];
	let cancelled = false;
	state.onUpdate = u => {
		if (u.sessionUpdate === "agent_message_chunk" && !cancelled) {
			cancelled = true;
			cx.notify(acp.methods.agent.session.cancel, { sessionId });
		}
	};
	const stopped = await cx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "talk forever" }] });
	state.onUpdate = undefined;
	check(cancelled && stopped.stopReason === "cancelled", "cancelled stop reason", stopped);
	summary.cancel = { stopReason: stopped.stopReason };
});

// A new agent process loads the session: the history comes back first.
state.updates = [];
await session(async cx => {
	await cx.request(acp.methods.agent.session.load, { sessionId, cwd: cfg.cwd, mcpServers: [] });
	const user = text(state.updates, "user_message_chunk");
	check(user.includes("make greet say Hello, world!") && user.includes("talk forever"), "replayed user messages", user);
	check(text(state.updates, "agent_message_chunk").startsWith("Reading it.Done."), "replayed answer", text(state.updates, "agent_message_chunk"));
	const replayed = calls(state.updates);
	check(replayed.length === 2 && replayed[1].content.some(c => c.type === "diff" && c.path === greet), "replayed calls", replayed);
	summary.load = { updates: state.updates.length, calls: replayed.length };

	state.updates = [];
	const again = await cx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "and now?" }] });
	check(again.stopReason === "end_turn" && text(state.updates, "agent_message_chunk") === "Loaded.", "prompt after load", state.updates);
	summary.afterLoad = { stopReason: again.stopReason };
});

process.stdout.write(JSON.stringify({ ok: true, ...summary }) + "\n");
