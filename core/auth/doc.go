// Package auth keeps the credentials gopi signs requests with: API keys and
// OAuth sign-ins in agent.db, the SQLite file omp 14.9.9 keeps them in, in
// the same format (schema version 4), so either program reads the other's.
//
// # Where credentials live
//
// gopi's own file is <agent dir>/agent.db (~/.gopi/agent/agent.db): the
// logins made with `gopi login` go there, created with mode 0600 in a 0700
// directory, in WAL mode with a 5-second busy timeout, as omp does. omp's
// ~/.omp/agent/agent.db is read after it, so an omp user's logins work in
// gopi without a new login. The registry (core/ai/models) asks the store
// after a runtime --api-key and before auth.json, models.yml and the
// environment; auth.json stays gopi's legacy, read-only file, below both
// databases and never migrated.
//
// # The format
//
// Each credential is a row of auth_credentials: provider, credential_type
// ("api_key" or "oauth"), data (JSON: {"key": …} or the oauth.Credentials
// fields), identity_key (the account a sign-in belongs to, see
// IdentityKey) and disabled_cause. Nothing is deleted: a logout, a
// replaced login or a refresh token the provider refused sets
// disabled_cause, and the row stops counting. A file whose
// auth_schema_version is newer than SchemaVersion, a corrupt file and a
// file locked past the busy timeout are a one-line DBError naming the file
// and what to do; gopi writes nothing to such a file. Older schemas of
// gopi's own file are migrated as omp migrates them; omp's file is never
// restructured, only read as it is.
//
// # Choosing and refreshing
//
// A provider's API keys are used before its sign-ins. Of several of one
// kind, a session keeps to the one its id hashes to (its provider-side
// prompt cache stays warm) and requests without a session take them in
// turn; the others are the fallbacks when one cannot be used. A sign-in whose
// access token expires within oauth.RefreshBuffer is refreshed through its
// oauth.Provider before the request leaves: concurrent requests share one
// refresh, and two gopi processes on one file serialise on a lock beside
// it, the second reading the tokens the first stored. The refreshed tokens
// are written back to the row they came from — in omp's file too, since a
// provider that rotates refresh tokens invalidates the old one, and omp
// would otherwise be left holding it. (An omp process already running
// keeps the tokens it loaded; its next refresh of that sign-in fails and
// omp asks for a login there.) A refresh the provider refuses soft-deletes
// the sign-in; a passing failure sets it aside for five minutes; either is
// reported once, by the request that met it, with the command that fixes
// it (`gopi login <provider>`).
//
// Secrets never leave the package in text meant for people: Status shows
// provider, kind, expiry and a Fingerprint.
package auth
