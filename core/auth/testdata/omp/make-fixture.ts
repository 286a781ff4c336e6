// make-fixture.ts writes agent.db with omp 14.9.9's own storage code, so the
// Go tests read a database exactly as omp leaves it. Run it with the omp
// reference install (see /work/shared/tools/omp-reference.sh):
//
//   OMP=/root/.cache/omp-reference/node_modules/@oh-my-pi \
//     /root/.cache/omp-reference/node_modules/.bin/bun make-fixture.ts agent.db
//
// The tokens are made up; they only have the shape of Anthropic's.
const omp = process.env.OMP;
if (!omp) throw new Error("set OMP to the @oh-my-pi directory of the omp reference install");
const out = process.argv[2] ?? "agent.db";

// omp's coding agent opens agent.db through AgentStorage (settings, model
// usage) and keeps credentials in it through pi-ai's AuthStorage.
const { AgentStorage } = await import(`${omp}/pi-coding-agent/src/session/agent-storage.ts`);
const { AuthStorage } = await import(`${omp}/pi-ai/src/auth-storage.ts`);

await AgentStorage.open(out);
const auth = await AuthStorage.create(out);
await auth.reload();

// An Anthropic Claude Pro/Max sign-in that is valid until 2286 (Unix ms
// 9999999999999), and one that expired in 2001, signed in as another user.
await auth.set("anthropic", [
	{
		type: "oauth",
		access: "sk-ant-oat01-fixture-access-token",
		refresh: "sk-ant-ort01-fixture-refresh-token",
		expires: 9999999999999,
		email: "Omp.User@Example.com",
	},
	{
		type: "oauth",
		access: "sk-ant-oat01-expired-access-token",
		refresh: "sk-ant-ort01-expired-refresh-token",
		expires: 1000000000000,
		email: "second@example.com",
	},
]);
// Two OpenAI API keys, used in turn, and a removed Groq key.
await auth.set("openai", [
	{ type: "api_key", key: "sk-fixture-openai-one" },
	{ type: "api_key", key: "sk-fixture-openai-two" },
]);
await auth.set("groq", { type: "api_key", key: "gsk-fixture-removed" });
await auth.logout("groq");
auth.close();
console.log(`wrote ${out}`);
