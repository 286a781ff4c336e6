// read-with-omp.ts prints the active credentials of an agent.db the way
// omp 14.9.9's own code reads them (provider, type, and for a key or token
// only its length), to check that omp can use a file gopi wrote:
//
//   OMP=/root/.cache/omp-reference/node_modules/@oh-my-pi \
//     /root/.cache/omp-reference/node_modules/.bin/bun read-with-omp.ts path/to/agent.db
const omp = process.env.OMP;
if (!omp) throw new Error("set OMP to the @oh-my-pi directory of the omp reference install");
const { AuthStorage } = await import(`${omp}/pi-ai/src/auth-storage.ts`);
const auth = await AuthStorage.create(process.argv[2]);
await auth.reload();
for (const provider of auth.list().sort()) {
	const key = await auth.getApiKey(provider);
	console.log(`${provider} ${auth.hasOAuth(provider) ? "oauth" : "api_key"} ${key ? key.length : 0}`);
}
auth.close();
