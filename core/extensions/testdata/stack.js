// A stacking extension after hooks-v2: "/pop N" folds the conversation
// from branch entry N (a user message) onwards into a summary kept as a
// stack_pop entry; its context handler shows every range a summary covers
// as that summary, the most recent range winning where ranges overlap.
export default function (pi) {
	const summaryOf = (entries, label) => label + ": " + entries.filter((e) => e.type === "message").length + " messages";
	pi.command("pop", {
		description: "Fold the conversation back to an earlier prompt",
		handler: async (ctx) => {
			const entries = ctx.entries;
			const back = Number(ctx.args[0]);
			const target = entries[back];
			if (!target || target.type !== "message" || target.message.role !== "user") {
				return { status: "not a user message: " + ctx.argsRaw };
			}
			const compactions = entries.filter((e) => e.type === "compaction");
			const last = compactions[compactions.length - 1];
			const entry = { type: "stack_pop", backToIndex: back, summary: summaryOf(entries.slice(back), "popped") };
			if (last && back < last.firstKeptEntryIndex) {
				entry.prePopSummary = summaryOf(entries.slice(0, back), "before");
			}
			await ctx.saveEntry(entry);
			await ctx.rebuildContext();
			return { status: "popped to " + back };
		},
	});
	pi.on("context", (event) => {
		const entries = event.entries;
		if (!entries.some((e) => e.type === "stack_pop")) return;
		const spans = [];
		entries.forEach((e, i) => {
			if (e.type === "compaction") spans.push({ from: 0, to: e.firstKeptEntryIndex, text: e.summary });
			if (e.type === "stack_pop") {
				if (e.prePopSummary) spans.push({ from: 0, to: e.backToIndex, text: e.prePopSummary });
				spans.push({ from: e.backToIndex, to: i, text: e.summary });
			}
		});
		const out = [];
		const shown = new Set();
		entries.forEach((e, i) => {
			let win = -1;
			spans.forEach((s, id) => {
				if (s.from <= i && i < s.to) win = id;
			});
			if (win >= 0) {
				if (i === spans[win].from && !shown.has(win)) {
					shown.add(win);
					out.push({ message: { role: "user", content: "[Summary]\n\n" + spans[win].text, timestamp: 0 }, entryIndex: null });
				}
				return;
			}
			if (e.type === "message") out.push({ message: e.message, entryIndex: i });
		});
		return { messages: out };
	});
}
